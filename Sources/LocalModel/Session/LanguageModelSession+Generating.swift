import Synchronization

/// Guided generation (Apple's `respond(to:generating:)`): the answer is one value of a
/// `Generable` type, written under a grammar compiled from the type's schema, so it parses and
/// matches the schema by construction, and decoded into the type.
///
/// Tools: when the session has tools and the mode allows calls, every round is constrained to
/// "a valid tool call or the valid answer" (one grammar, the model's first token chooses), so
/// the model may look things up first and the round that answers is still the constrained one.
/// `.required` constrains the first round to calls, then relaxes as in text responses; with
/// `.disallowed` or no tools, the first round is the answer.
extension LanguageModelSession {
    /// Answers `prompt` with a value of `type`.
    ///
    /// - Parameter includeSchemaInPrompt: also describe the schema to the model in the prompt
    ///   (Apple's default: true). The grammar constrains the answer either way; the description
    ///   helps the model fill it with sensible values, and its tokens count in the budget's
    ///   prompt section.
    /// - Throws: `GenerationError.invalidGenerationSchema` before decoding anything when the
    ///   schema cannot become a grammar; `GenerationError.decodingFailure` with the raw text when
    ///   the answer cannot become a `T` (for example, cut off by `maximumResponseTokens`).
    public func respond<T: Generable & Sendable>(to prompt: String, generating type: T.Type = T.self,
                                                 includeSchemaInPrompt: Bool = true,
                                                 options: GenerationOptions = GenerationOptions()) async throws -> Response<T> {
        try await respond(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Answers a prompt with attachments with a value of `type`.
    public func respond<T: Generable & Sendable>(to prompt: Prompt, generating type: T.Type = T.self,
                                                 includeSchemaInPrompt: Bool = true,
                                                 options: GenerationOptions = GenerationOptions()) async throws -> Response<T> {
        try await run(.prompt(prompt), options: options, answer: Self.structuredAnswer(type, includeSchemaInPrompt), snapshot: { _, _ in })
    }

    /// Streams a value of `type` as snapshots of the content completed so far, then returns the
    /// decoded value from `collect()`.
    public func streamResponse<T: Generable & Sendable>(to prompt: String, generating type: T.Type = T.self,
                                                        includeSchemaInPrompt: Bool = true,
                                                        options: GenerationOptions = GenerationOptions()) -> GuidedResponseStream<T> {
        streamResponse(to: Prompt(prompt), generating: type, includeSchemaInPrompt: includeSchemaInPrompt, options: options)
    }

    /// Streams a value of `type` for a prompt with attachments.
    public func streamResponse<T: Generable & Sendable>(to prompt: Prompt, generating type: T.Type = T.self,
                                                        includeSchemaInPrompt: Bool = true,
                                                        options: GenerationOptions = GenerationOptions()) -> GuidedResponseStream<T> {
        let (stream, final) = streaming { (continuation: AsyncThrowingStream<Snapshot<GeneratedContent>, any Error>.Continuation) in
            let last = Mutex<GeneratedContent?>(nil)
            return try await self.run(.prompt(prompt), options: options, answer: Self.structuredAnswer(type, includeSchemaInPrompt)) { text, entries in
                guard let partial = GeneratedContent(parsingPrefix: text) else { return }
                let isNew = last.withLock { last in
                    defer { last = partial }
                    return last != partial
                }
                if isNew { continuation.yield(Snapshot(content: partial, rawContent: partial, transcriptEntries: entries)) }
            }
        }
        return GuidedResponseStream(stream: stream, final: final)
    }

    /// What the prompt says about the schema when `includeSchemaInPrompt` is on.
    static func schemaInstruction(_ schema: GenerationSchema) -> String {
        "\n\nRespond with JSON matching this schema: " + schema.jsonSchema.pythonStyleJSON()
    }

    private static func structuredAnswer<T: Generable & Sendable>(_ type: T.Type, _ includeSchemaInPrompt: Bool) -> AnswerFormat<T> {
        let schema = T.generationSchema
        let typeName = String(describing: T.self)
        return AnswerFormat(schema: schema, typeName: typeName,
                            promptSuffix: includeSchemaInPrompt ? schemaInstruction(schema) : "") { _, answerText in
            func failure(_ reason: String) -> GenerationError {
                .decodingFailure(type: typeName, rawText: answerText, reason: reason)
            }
            let value: GeneratedContent
            do {
                value = try GeneratedContent(parsing: answerText, duplicateKeys: .lastWins)
            } catch {
                throw failure("the text is not one JSON value (\(error)); if it was cut off, raise maximumResponseTokens")
            }
            do {
                try schema.validate(value, rootName: typeName)
            } catch {
                throw failure("the value does not match the schema: \(error)")
            }
            do {
                return (try T(value), value)
            } catch {
                throw failure("\(error)")
            }
        }
    }
}
