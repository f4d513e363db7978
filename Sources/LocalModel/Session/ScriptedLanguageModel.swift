import Synchronization
import TokenBudget

/// A model that replays fixed outputs, one per generation, for deterministic tests of code
/// built on `LanguageModelSession` (the tool loop, errors, limits, cancellation).
///
/// It ignores grammars, sampling and forbidden openings; what it "generates" is the next script
/// line, cut at a stop string, a repeated call or a looping text as the engine would, delivered in small pieces like a real stream. Prompts it received are kept for inspection.
package final class ScriptedLanguageModel: LanguageModel {
    private let script: Mutex<[String]>
    private let received = Mutex<[(RenderedPrompt, GenerationParameters)]>([])
    /// Pause before each piece, so a test can cancel mid-generation.
    package let pieceDelay: Duration
    package let chatTemplate: ChatTemplate

    package convenience init(_ outputs: [String], family: ChatTemplate.Family = .chatml, pieceDelay: Duration = .zero) {
        self.init(outputs, chatTemplate: ChatTemplate(family: family), pieceDelay: pieceDelay)
    }

    /// A model of any layout (`ChatTemplate(named:)`, or a real model's template).
    package init(_ outputs: [String], chatTemplate: ChatTemplate, pieceDelay: Duration = .zero) {
        self.script = Mutex(outputs)
        self.pieceDelay = pieceDelay
        self.chatTemplate = chatTemplate
    }

    /// The prompts generated from so far, in order.
    package var prompts: [String] { received.withLock { $0.map(\.0.text) } }
    /// The same prompts in their runs of markup and content, as a real model tokenizes them.
    package var renderedPrompts: [RenderedPrompt] { received.withLock { $0.map(\.0) } }
    /// The generation parameters of each request (grammar, stop strings, limits), in order.
    package var parameters: [GenerationParameters] { received.withLock { $0.map(\.1) } }

    package var tokenCounter: any TokenCounter { CharacterCountTokenCounter() }
    package var defaultContextWindow: ContextWindow { .k8 }
    package func singleTokens(spelling text: String) -> [Token] { [] }

    package func makeConversation(window: ContextWindow) throws -> any LanguageModelConversation {
        ScriptedConversation(model: self, contextSize: window.tokens)
    }

    fileprivate func next(for prompt: RenderedPrompt, parameters: GenerationParameters) -> String? {
        received.withLock { $0.append((prompt, parameters)) }
        return script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

/// Counts one token per four characters: close enough to a real vocabulary for budget tests
/// that don't need a real one.
package struct CharacterCountTokenCounter: TokenCounter {
    package init() {}
    package func countTokens(in text: String, parseSpecial: Bool) throws -> Int { (text.count + 3) / 4 }
}

private final class ScriptedConversation: LanguageModelConversation {
    let model: ScriptedLanguageModel
    let contextSize: Int
    private let generated = Mutex(EngineCounters())

    init(model: ScriptedLanguageModel, contextSize: Int) {
        self.model = model
        self.contextSize = contextSize
    }

    var counters: EngineCounters { get async { generated.withLock { $0 } } }

    func prefill(prompt: String) async throws {}

    func generate(prompt: String, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        generate(prompt: RenderedPrompt(prompt, parsesSpecialTokens: true), parameters: parameters)
    }

    func generate(prompt rendered: RenderedPrompt, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
        let prompt = rendered.text
        let output = model.next(for: rendered, parameters: parameters)
        let delay = model.pieceDelay
        let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let task = Task { [self] in
            do {
                guard var text = output else {
                    throw LocalModelError.decodeFailed(code: -1, position: 0)
                }
                for stop in parameters.stopStrings { if let range = text.range(of: stop) { text = String(text[..<range.lowerBound]) } }
                var pieces = 0
                var rest = Substring(text)
                var repeatWatch = parameters.repeatedSpanStop.map(RepeatedSpanStop.Watch.init)
                var loopWatch = parameters.repeatedTextStop.map(RepeatedTextStop.Watch.init)
                var stopReason = GenerationSummary.StopReason.endOfGeneration
                while !rest.isEmpty {
                    try Task.checkCancellation()
                    if delay > .zero { try await Task.sleep(for: delay) }
                    let piece = String(rest.prefix(4))
                    continuation.yield(.text(piece))
                    rest = rest.dropFirst(4)
                    pieces += 1
                    if repeatWatch?.repeats(after: piece) == true || loopWatch?.repeats(after: piece) == true { stopReason = .repeatedSpan; break }
                }
                self.generated.withLock { $0.tokensGenerated += pieces }
                continuation.yield(.finished(GenerationSummary(
                    stopReason: stopReason, promptTokens: (prompt.count + 3) / 4, reusedTokens: 0, generatedTokens: pieces,
                    prefillDuration: .zero, generationDuration: .zero, timeToFirstToken: nil)))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error is CancellationError ? LocalModelError.cancelled : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
