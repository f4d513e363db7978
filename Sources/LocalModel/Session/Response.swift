extension LanguageModelSession {
    /// A finished response (Apple's `LanguageModelSession.Response`).
    public struct Response<Content: Sendable>: Sendable {
        /// The answer: text, or a generated value for guided generation.
        public let content: Content
        /// The answer as generated content (the text as a JSON string for text answers).
        public let rawContent: GeneratedContent
        /// The entries this response added to the transcript: the prompt, any tool calls and
        /// outputs, and the response.
        public let transcriptEntries: ArraySlice<Transcript.Entry>
        /// Tokens and time spent, summed over every generation round of the response.
        public let usage: Usage
        /// The sources this response's tool outputs showed the model, in the order shown
        /// (`CitableSource`; an output without sources of its own is one, named after its tool).
        public let sources: [CitableSource]
        /// The sources the answer cites with `[id]` markers, each once, in the order of its first
        /// marker; every one is among `sources` (the grammar admits no other). Empty for a
        /// structured answer.
        public let citations: [Citation]
        /// The calls of external tools the response ended with (`ExternalTool`), in the order
        /// written: the caller runs them and goes on with `respond(continuingWith:)`. Empty when
        /// the model answered; the content is then the answer, else only what the model wrote
        /// before its calls. (A Lantern addition.)
        public let externalToolCalls: [Transcript.ToolCall]

        /// Why the answer was ended before the model ended it (a loop, the token limit), from
        /// the response's transcript entry; nil when the model ended it.
        public var truncation: Transcript.Response.Truncation? {
            transcriptEntries.last.flatMap { if case .response(let response) = $0 { response.truncation } else { nil } }
        }
    }

    /// What a response cost.
    public struct Usage: Sendable, Hashable {
        /// Prompt tokens over all rounds (a tool round re-sends the conversation).
        public var promptTokens = 0
        /// Of those, tokens found in the KV cache and not decoded again.
        public var cachedTokens = 0
        /// Of `cachedTokens`, those whose state was loaded from disk (`PromptCache`): the
        /// instructions and tool definitions a previous process decoded.
        public var restoredTokens = 0
        /// Why a saved prompt state was not loaded or saved (`PromptStateNote`): the prompt was
        /// decoded in full instead, so the answer is unchanged, but a warm start was lost.
        public var promptStateNotes: [PromptStateNote] = []
        public var generatedTokens = 0
        /// Of those, the text a grammar forced (a required call's opening), decoded in the
        /// prompt's batch rather than one token at a time.
        public var forcedTokens = 0
        public var prefillDuration = Duration.zero
        public var decodeDuration = Duration.zero
        /// Time inside tool calls.
        public var toolDuration = Duration.zero
        /// Time from the call to the first visible text of the answer (tool rounds included).
        public var timeToFirstToken: Duration?
        /// Time from the call to the first text the model generated, a tool call's included:
        /// the first round's time to first token, which the prompt's decoding (or the restore
        /// of its saved state) decides, unlike `timeToFirstToken`, which tool rounds lengthen.
        public var timeToFirstGeneratedText: Duration?
        /// Generation rounds (one plus one per round of tool calls).
        public var rounds = 0

        mutating func add(_ summary: GenerationSummary) {
            promptTokens += summary.promptTokens
            cachedTokens += summary.reusedTokens
            restoredTokens += summary.restoredTokens
            promptStateNotes += summary.promptStateNotes
            generatedTokens += summary.generatedTokens
            forcedTokens += summary.forcedTokens
            prefillDuration += summary.prefillDuration
            decodeDuration += summary.generationDuration
            rounds += 1
        }
    }

    /// A partial response while streaming (Apple's `ResponseStream.Snapshot`): `content` is
    /// the whole answer so far, not a delta — assign it, don't append.
    public struct Snapshot<Content: Sendable>: Sendable {
        public let content: Content
        public let rawContent: GeneratedContent
        /// Transcript entries added so far (tool calls and outputs appear as they happen).
        public let transcriptEntries: ArraySlice<Transcript.Entry>

        /// The sources the tool outputs so far showed the model, read as the finished
        /// `Response.sources` is: once the answer is being written, what its markers may name,
        /// so a reader of the stream can tell a citation from other bracketed text.
        public var sources: [CitableSource] { ResponseSources(transcriptEntries).sources }
    }
}

/// The snapshots of a streaming response (Apple's `LanguageModelSession.ResponseStream`).
public struct ResponseStream<Content: Sendable>: AsyncSequence, Sendable {
    public typealias Element = LanguageModelSession.Snapshot<Content>
    let stream: AsyncThrowingStream<Element, any Error>
    let final: @Sendable () async throws -> LanguageModelSession.Response<Content>

    public func makeAsyncIterator() -> AsyncThrowingStream<Element, any Error>.Iterator { stream.makeAsyncIterator() }

    /// Waits for the end and returns the whole response.
    public func collect() async throws -> LanguageModelSession.Response<Content> {
        for try await _ in stream {}
        return try await final()
    }
}
