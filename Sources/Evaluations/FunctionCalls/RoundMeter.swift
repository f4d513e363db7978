import LocalModel
import Synchronization
import TokenBudget

/// A `LanguageModel` that hands everything to another one and notes, for each generation
/// round, when it ended and what it cost (its `GenerationSummary`).
///
/// A session's usage sums all rounds, but a function-calling case is about the round that wrote
/// the call: with `.required` and one tool round, the session then runs the (canned) tool and
/// lets the model answer, which a peer that stops at the call does not do. The meter lets the
/// evaluation count that first round alone, from the engine's own figures rather than an
/// estimate. It adds nothing to the prompt or the grammar; the events pass through unchanged.
final class RoundMeter: LanguageModel {
    /// One finished generation round.
    struct Round: Sendable {
        var summary: GenerationSummary
        /// When its stream delivered the summary: the round's text is complete.
        var end: ContinuousClock.Instant
    }

    let base: any LanguageModel
    private let finished = Mutex<[Round]>([])

    init(_ base: any LanguageModel) { self.base = base }

    /// The rounds finished so far, in order.
    var rounds: [Round] { finished.withLock { $0 } }

    var chatTemplate: ChatTemplate { base.chatTemplate }
    var tokenCounter: any TokenCounter { base.tokenCounter }
    var defaultContextWindow: ContextWindow { base.defaultContextWindow }
    func singleTokens(spelling text: String) -> [Token] { base.singleTokens(spelling: text) }

    func makeConversation(window: ContextWindow) throws -> any LanguageModelConversation {
        MeteredConversation(base: try base.makeConversation(window: window), meter: self)
    }

    fileprivate func record(_ summary: GenerationSummary) {
        let end = ContinuousClock.now
        finished.withLock { $0.append(Round(summary: summary, end: end)) }
    }
}

/// The base model's conversation, its generation streams passed through the meter.
private final class MeteredConversation: LanguageModelConversation {
    let base: any LanguageModelConversation
    let meter: RoundMeter

    init(base: any LanguageModelConversation, meter: RoundMeter) {
        self.base = base
        self.meter = meter
    }

    var contextSize: Int { base.contextSize }
    var counters: EngineCounters { get async { await base.counters } }
    func prefill(prompt: String) async throws { try await base.prefill(prompt: prompt) }
    func prefill(prompt: RenderedPrompt) async throws { try await base.prefill(prompt: prompt) }

    func generate(prompt: String, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        metered(base.generate(prompt: prompt, parameters: parameters))
    }

    func generate(prompt: RenderedPrompt, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        metered(base.generate(prompt: prompt, parameters: parameters))
    }

    /// The same events; a summary is recorded before it is passed on. Cancelling the consumer
    /// cancels the base stream's reader, so a cancelled session still stops promptly.
    private func metered(_ events: AsyncThrowingStream<GenerationEvent, any Error>) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let task = Task { [meter] in
            do {
                for try await event in events {
                    if case .finished(let summary) = event { meter.record(summary) }
                    continuation.yield(event)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
