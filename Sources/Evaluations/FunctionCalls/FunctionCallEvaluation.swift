import LocalModel
import TokenBudget

/// Runs a function-calling dataset: every case in a fresh session holding only the case's
/// tools (`DynamicTool`s built from its JSON Schemas), with tool calling `.required`, and scores
/// the calls the response's transcript records (`ToolCallLog`, `FunctionCallScorer`).
///
/// A case whose schema `GenerationSchema(jsonSchema:)` refuses is recorded as not converted
/// and not run, so one unsupported construct is a count in the report rather than the end of
/// the run. A failing response is a result too, with its error.
public struct FunctionCallEvaluation: Sendable {
    public struct Configuration: Sendable {
        /// The cap on each generation round; nil is the session's default.
        public var maximumResponseTokens: Int?
        /// nil decodes greedily, so a run repeats on one machine.
        public var seed: UInt32?
        /// nil uses the model's default window.
        public var contextWindow: ContextWindow?
        /// Instructions for every session; nil gives none (only the tools are described).
        public var instructions: String?

        public init(maximumResponseTokens: Int? = nil, seed: UInt32? = nil, contextWindow: ContextWindow? = nil,
                    instructions: String? = nil) {
            self.maximumResponseTokens = maximumResponseTokens
            self.seed = seed
            self.contextWindow = contextWindow
            self.instructions = instructions
        }
    }

    public let model: any LanguageModel
    public let configuration: Configuration

    public init(model: any LanguageModel, configuration: Configuration = Configuration()) {
        self.model = model
        self.configuration = configuration
    }

    /// Runs every case in order, calling `progress` after each with its result, how many are
    /// done and how many there are.
    public func run(_ cases: [FunctionCallCase],
                    progress: @Sendable (FunctionCallResult, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) async -> FunctionCallReport {
        var results: [FunctionCallResult] = []
        for functionCallCase in cases {
            let result = await run(functionCallCase)
            results.append(result)
            progress(result, results.count, cases.count)
        }
        return FunctionCallReport(results: results)
    }

    /// Runs one case.
    public func run(_ functionCallCase: FunctionCallCase) async -> FunctionCallResult {
        var tools: [DynamicTool] = []
        for definition in functionCallCase.tools {
            do {
                tools.append(try DynamicTool(name: definition.name, description: definition.description, jsonSchema: definition.parameters))
            } catch {
                return FunctionCallResult(caseID: functionCallCase.id, schemaError: "\(definition.name): \(error)")
            }
        }
        // One round: the calls are what is scored, and `.required` then relaxes so the model
        // closes its turn after the canned results instead of calling again. The meter tells
        // that call round apart from the answer round, which is not measured.
        let meter = RoundMeter(model)
        let session = LanguageModelSession(model: meter, tools: tools, instructions: configuration.instructions,
                                           contextWindow: configuration.contextWindow, maximumToolRounds: 1)
        let options = GenerationOptions(sampling: configuration.seed.map { .random(top: 40, seed: $0) },
                                        maximumResponseTokens: configuration.maximumResponseTokens, toolCallingMode: .required)
        let start = ContinuousClock.now
        let entries: [Transcript.Entry]
        var result = FunctionCallResult(caseID: functionCallCase.id)
        do {
            entries = Array(try await session.respond(to: functionCallCase.question, options: options).transcriptEntries)
        } catch {
            entries = Array(session.transcript)
            result.error = String(describing: error)
        }
        if let callRound = meter.rounds.first {
            let summary = callRound.summary
            result.latency = Latency(total: (callRound.end - start).seconds, prefill: summary.prefillDuration.seconds,
                                     decode: summary.generationDuration.seconds)
            result.tokens = TokenCounts(prompt: summary.promptTokens, cached: summary.reusedTokens, generated: summary.generatedTokens)
        } else {
            // the response failed before its first round finished: only the time is known
            result.latency = Latency(total: (ContinuousClock.now - start).seconds)
        }
        let log = ToolCallLog(entries: entries, schemas: Dictionary(tools.map { ($0.name, $0.parameters) }) { first, _ in first })
        result.calledFunctions = log.calls.map(\.toolName)
        result.attemptedCalls = log.attemptedCount
        result.validCalls = log.validCount
        result.score(firstCall: log.calls.first.map { ($0.toolName, $0.arguments) }, against: functionCallCase.calls)
        return result
    }
}
