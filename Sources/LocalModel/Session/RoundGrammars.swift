/// The grammars one response may use, compiled before anything is decoded and again after
/// every round of calls: tool calls (from each tool's per-prompt schema), the answer, and the
/// two combined. The answer's grammar is the structured answer's (its quote fields limited to
/// the shown sources' sentences), or, for a text answer after tool outputs with sources, the
/// citation or quote grammar (`GroundingGrammar`).
struct RoundGrammars {
    let toolCalls: Grammar?
    let answer: Grammar?
    let answerOrToolCalls: Grammar?
    /// Set when the answer grammars are lazy: the text that starts them (a citation's `[`).
    let answerTrigger: String?
    /// The tools available for this prompt, by name.
    let toolNames: [String]

    /// What the answer may rest on and how it is written.
    struct Grounding {
        /// The sources this response's tool outputs showed so far.
        var sources: ResponseSources
        /// What of them the answer may quote and cite, best first.
        var evidence: AnswerEvidence
        /// The answer style, resolved for the model (never `.automatic`).
        var style: GenerationOptions.AnswerStyle
        var citesSources: Bool
    }

    /// The tools the round may call are those `options.allowedToolNames` admits (all of them
    /// when it is nil) that say they are available for `prompt`.
    init<Content>(tools: [ToolBox], prompt: Prompt, answer format: LanguageModelSession.AnswerFormat<Content>,
                   syntax: ToolCallSyntax, options: GenerationOptions, grounding: Grounding) async throws {
        let maximumCalls = options.maximumToolCallsPerRound
        var signatures: [GrammarCompiler.ToolSignature] = []
        for tool in tools where options.allowedToolNames?.contains(tool.name) ?? true {
            guard await tool.isAvailable(for: prompt) else { continue }
            signatures.append(.init(name: tool.name, arguments: await tool.parameters(for: prompt)))
        }
        toolNames = signatures.map(\.name)
        let compiler = GrammarCompiler()
        let toolCalls: Grammar?
        do {
            // a text answer's rounds read bare call objects as calls, so the grammar holds them too
            toolCalls = signatures.isEmpty ? nil : try compiler.toolCallGrammar(for: signatures, syntax: syntax, maximumCalls: maximumCalls,
                                                                                 bareCall: format.schema == nil)
        } catch {
            throw LanguageModelSession.GenerationError.invalidToolSchema(tool: tools.map(\.name).joined(separator: ", "), error)
        }
        self.toolCalls = toolCalls
        guard let schema = format.schema else {
            let evidence = grounding.evidence
            if grounding.style == .quote, let quoted = GroundingGrammar.quotes(evidence, orToolCalls: nil) {
                answer = quoted
                answerOrToolCalls = toolCalls.flatMap { GroundingGrammar.quotes(evidence, orToolCalls: $0) }
                answerTrigger = nil
            } else if grounding.citesSources && !evidence.sourceIDs.isEmpty {
                answer = GroundingGrammar.citations(evidence, orToolCalls: nil, trigger: syntax.trigger)
                answerOrToolCalls = toolCalls.map { GroundingGrammar.citations(evidence, orToolCalls: $0, trigger: syntax.trigger) }
                answerTrigger = Citation.markerOpen
            } else {
                (answer, answerOrToolCalls, answerTrigger) = (nil, nil, nil)
            }
            return
        }
        answerTrigger = nil
        let quoting = schema.quotingFields(from: grounding.sources.sentences)
        do {
            answer = try compiler.grammar(for: quoting)
            answerOrToolCalls = signatures.isEmpty ? nil : try compiler.grammar(for: quoting, orToolCalls: signatures, syntax: syntax, maximumCalls: maximumCalls)
        } catch {
            throw LanguageModelSession.GenerationError.invalidGenerationSchema(type: format.typeName, error)
        }
    }
}
