import Foundation
import LocalModel
import Synchronization
import TokenBudget

/// `llama-server` as a `LanguageModel`, for the e2e section's "same work" peer: a
/// `LanguageModelSession` over it renders the prompt, builds each round's grammar, reads the
/// calls with its own parser, runs the tools and writes their outputs exactly as it does over
/// the in-process model, and sends each round to /completion as a client of the server would:
/// the rendered prompt, the round's GBNF in `grammar` (lazy, with its triggers, when the
/// session's is), its stop strings and token cap, `cache_prompt`, greedy.
///
/// Template, vocabulary and size come from the same model file loaded in-process, so the text
/// the server reads is the text Lantern decodes. Markup the vocabulary spells as one special
/// token (Qwen's `<tool_call>` and `</tool_call>`) goes in `preserved_tokens`: the server refuses
/// a trigger word that is one token unless it is preserved (a 400, "Grammar trigger word should
/// be marked as preserved token"), and writes a special token's text into `content` only when it
/// is, so without it the session's parser would never see the call's markers. /completion rather than the chat endpoint:
/// the chat endpoint applies a request's `grammar` from the first token and drops its
/// `grammar_lazy` (it sets its own from the template), so the rounds after a search, whose
/// grammar waits for `<tool_call>` or a citation, could not be asked of it.
///
/// Two things the server cannot be asked for are left out: the forced prefix (the server
/// generates a required call's opening token by token, under the same grammar) and the
/// repeated-span stop (a call the model writes again runs to its end).
struct LlamaServerModel: LanguageModel {
    let local: LocalModel
    let server: LlamaServer
    /// The most one request may take.
    let timeout: Double

    var chatTemplate: ChatTemplate { local.chatTemplate }
    var tokenCounter: any TokenCounter { local.tokenCounter }
    var defaultContextWindow: ContextWindow { local.defaultContextWindow }
    var parameterCount: UInt64? { local.parameterCount }
    func singleTokens(spelling text: String) -> [Token] { local.singleTokens(spelling: text) }

    /// The server's one slot; `window` must be the context it was started with.
    func makeConversation(window: ContextWindow) throws -> any LanguageModelConversation {
        Conversation(server: server, local: local, contextSize: window.tokens, timeout: timeout)
    }

    final class Conversation: LanguageModelConversation {
        let server: LlamaServer
        /// The in-process copy of the model: its vocabulary says which markup is one token.
        let local: LocalModel
        let contextSize: Int
        let timeout: Double
        private let totals = Mutex(EngineCounters())

        init(server: LlamaServer, local: LocalModel, contextSize: Int, timeout: Double) {
            self.server = server
            self.local = local
            self.contextSize = contextSize
            self.timeout = timeout
        }

        var counters: EngineCounters { get async { totals.withLock { $0 } } }

        /// One /completion request; the text arrives in one piece when the server is done.
        func generate(prompt: String, parameters: GenerationParameters) -> AsyncThrowingStream<GenerationEvent, any Error> {
            let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
            let task = Task {
                do {
                    let request = try Self.request(prompt, parameters, preserving: preservedTokens(parameters))
                    let reply = try await server.complete(request, timeout: timeout)
                    let summary = Self.summary(of: reply)
                    totals.withLock { totals in
                        totals.tokensDecoded += summary.promptTokens - summary.reusedTokens + summary.generatedTokens
                        totals.tokensReused += summary.reusedTokens
                        totals.tokensGenerated += summary.generatedTokens
                    }
                    continuation.yield(.text(reply["content"]?.stringValue ?? ""))
                    continuation.yield(.finished(summary))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
            return stream
        }

        func prefill(prompt: String) async throws {
            _ = try await server.complete(["prompt": .string(prompt), "n_predict": 0, "cache_prompt": true], timeout: timeout)
        }

        /// The markup of the family's calls and the round's triggers that this vocabulary spells
        /// as one token: what the server must preserve to start the grammar on it and to show it.
        func preservedTokens(_ parameters: GenerationParameters) -> [String] {
            let syntax = local.chatTemplate.toolLayout.callSyntax
            var words = [syntax.trigger, syntax.roundOpen, syntax.callOpen, syntax.callClose, syntax.roundClose, syntax.separator]
            if case .lazy(let triggers, _, _)? = parameters.grammar?.activation { words += triggers }
            return Set(words).filter { !local.singleTokens(spelling: $0).isEmpty }.sorted()
        }

        /// The request body for one round; `preserving` goes in `preserved_tokens`.
        static func request(_ prompt: String, _ parameters: GenerationParameters, preserving: [String]) throws -> JSONObject {
            guard parameters.sampling == .greedy else { throw BenchmarkFailure("the llama-server model decodes greedily only") }
            var body: JSONObject = ["prompt": .string(prompt), "n_predict": .int(parameters.maximumTokens), "temperature": 0,
                                    "cache_prompt": true, "stream": false, "stop": .array(parameters.stopStrings.map(JSONValue.string))]
            if !preserving.isEmpty { body["preserved_tokens"] = .array(preserving.map(JSONValue.string)) }
            guard let grammar = parameters.grammar else { return body }
            guard grammar.root == "root" else { throw BenchmarkFailure("llama-server starts a grammar at `root`, not `\(grammar.root)`") }
            body["grammar"] = .string(grammar.gbnf)
            if case .lazy(let triggers, let grammarIncludesTrigger, _) = grammar.activation {
                // the server feeds a lazy grammar from its trigger on, as the session's call and citation grammars expect
                guard grammarIncludesTrigger else { throw BenchmarkFailure("llama-server cannot start a grammar after its trigger (thinking)") }
                body["grammar_lazy"] = true
                // type 1 is a word; the server finds a word that is one token itself (preserved above)
                body["grammar_triggers"] = .array(triggers.map { ["type": 1, "value": .string($0)] })
            }
            return body
        }

        /// The round's summary from the server's `stop_type` and `timings`.
        static func summary(of reply: JSONValue) -> GenerationSummary {
            let timings = reply["timings"] ?? .null
            let cached = timings["cache_n"]?.intValue ?? 0
            let stopReason: GenerationSummary.StopReason = switch reply["stop_type"]?.stringValue {
            case "word": .stopString(reply["stopping_word"]?.stringValue ?? "")
            case "limit": .maximumTokens
            default: .endOfGeneration
            }
            return GenerationSummary(
                stopReason: stopReason, promptTokens: cached + (timings["prompt_n"]?.intValue ?? 0), reusedTokens: cached,
                generatedTokens: timings["predicted_n"]?.intValue ?? 0,
                prefillDuration: .milliseconds(timings["prompt_ms"]?.doubleValue ?? 0),
                generationDuration: .milliseconds(timings["predicted_ms"]?.doubleValue ?? 0), timeToFirstToken: nil)
        }
    }
}
