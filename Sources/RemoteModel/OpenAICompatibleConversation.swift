import Foundation
import LocalModel
import Synchronization

/// One session's conversation with a remote model: each round is one streamed completion
/// request, its text handed to the session as it arrives.
///
/// The server keeps the KV cache (llama-server's `cache_prompt`, vLLM's prefix caching), so a
/// round that extends the last one decodes only what is new, as an in-process context does.
/// The looping stops the engine applies to its own output (a call written again, an answer
/// that ends in one span three times) are applied here to the streamed text: when one fires
/// the request is closed, which stops the server's generation too. Two things cannot be asked
/// of a server and are left out: a forced prefix (the server writes a required call's opening
/// itself, under the same grammar) and the token masks of `forbiddenOpenings` and
/// `requiresText`.
final class OpenAICompatibleConversation: LanguageModelConversation {
    let model: OpenAICompatibleModel
    let contextSize: Int
    private let totals = Mutex(EngineCounters())

    init(model: OpenAICompatibleModel, contextSize: Int) {
        self.model = model
        self.contextSize = contextSize
    }

    var counters: EngineCounters { get async { totals.withLock { $0 } } }

    func generate(prompt: String, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        generate(prompt: RenderedPrompt(prompt, parsesSpecialTokens: true), parameters: parameters)
    }

    func generate(prompt: RenderedPrompt, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let task = Task { [self] in
            do {
                let summary = try await run(prompt: prompt, parameters: parameters) { continuation.yield(.text($0)) }
                continuation.yield(.finished(summary))
                continuation.finish()
            } catch {
                continuation.finish(throwing: Task.isCancelled || error as? OpenAICompatibleModelError == .cancelled ? CancellationError() : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    func prefill(prompt: String) async throws {
        try await prefill(prompt: RenderedPrompt(prompt, parsesSpecialTokens: true))
    }

    func prefill(prompt: RenderedPrompt) async throws {
        let api = model.completionAPI
        let answer = try await model.endpoint.post(api.path, api.prefillBody(prompt: try model.input(prompt)))
        let timings = answer["timings"]
        let decoded = timings?["prompt_n"]?.intValue ?? answer["usage"]?["prompt_tokens"]?.intValue ?? 0
        let cached = timings?["cache_n"]?.intValue ?? 0
        totals.withLock { totals in
            totals.tokensDecoded += decoded
            totals.tokensReused += cached
        }
    }

    /// One round: sends the request, hands each piece of text to `emit`, and returns the
    /// round's summary from the server's counts and timings.
    private func run(prompt: RenderedPrompt, parameters: GenerationParameters, emit: (String) -> Void) async throws -> GenerationSummary {
        let api = model.completionAPI
        let body = try api.body(prompt: try model.input(prompt), parameters: parameters, preserving: model.preservedTokens(parameters))
        let start = ContinuousClock.now
        var firstText: ContinuousClock.Instant?
        var progress = CompletionProgress()
        var repeatWatch = parameters.repeatedSpanStop.map(RepeatedSpanStop.Watch.init)
        var loopWatch = parameters.repeatedTextStop.map(RepeatedTextStop.Watch.init)
        var events = ServerSentEventParser()
        // the response, and with it the connection, ends with this scope: leaving early (a
        // repeat, a cancellation) closes the request, and the server stops generating
        let response = try await model.endpoint.open(api.path, body)
        try await model.endpoint.translatingFailures(of: model.endpoint.url(api.path)) {
            reading: for try await bytes in response.body {
                for event in events.feed(bytes) {
                    let text = try api.read(event, into: &progress)
                    if !text.isEmpty {
                        if firstText == nil { firstText = .now }
                        emit(text)
                        if repeatWatch?.repeats(after: text) == true || loopWatch?.repeats(after: text) == true {
                            progress.stopReason = .repeatedSpan
                            break reading
                        }
                    }
                    if progress.isFinished { break reading }
                }
            }
        }
        try Task.checkCancellation()
        guard progress.isFinished || progress.stopReason == .repeatedSpan else {
            throw OpenAICompatibleModelError.connectionLost(url: model.endpoint.url(api.path).absoluteString,
                                                            reason: "the stream ended before the server said the round was over")
        }
        let end = ContinuousClock.now
        let generated = progress.generatedTokens ?? progress.textEvents
        let promptTokens = progress.promptTokens ?? 0
        let cached = progress.cachedTokens ?? 0
        totals.withLock { totals in
            totals.tokensDecoded += promptTokens - cached + generated
            totals.tokensReused += cached
            totals.tokensGenerated += generated
        }
        // the server's timings where it gives them; else the time to the first text is the
        // prefill's (and the request's), the rest the generation's
        let untilText = (firstText ?? end) - start
        return GenerationSummary(
            stopReason: progress.stopReason, promptTokens: promptTokens, reusedTokens: cached, generatedTokens: generated,
            prefillDuration: progress.prefillDuration ?? untilText, generationDuration: progress.generationDuration ?? (end - start - untilText),
            timeToFirstToken: firstText.map { $0 - start })
    }
}
