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
        // closes its turn after the canned results instead of calling again.
        let session = LanguageModelSession(model: model, tools: tools, instructions: configuration.instructions,
                                           contextWindow: configuration.contextWindow, maximumToolRounds: 1)
        let options = GenerationOptions(sampling: configuration.seed.map { .random(top: 40, seed: $0) },
                                        maximumResponseTokens: configuration.maximumResponseTokens, toolCallingMode: .required)
        let start = ContinuousClock.now
        let entries: [Transcript.Entry]
        var result = FunctionCallResult(caseID: functionCallCase.id)
        do {
            let response = try await session.respond(to: functionCallCase.question, options: options)
            entries = Array(response.transcriptEntries)
            result.latency = Latency(total: ContinuousClock.now - start, usage: response.usage)
            result.tokens = TokenCounts(response.usage)
        } catch {
            entries = Array(session.transcript)
            result.latency = Latency(total: (ContinuousClock.now - start).seconds)
            result.error = String(describing: error)
        }
        let log = ToolCallLog(entries: entries, schemas: Dictionary(tools.map { ($0.name, $0.parameters) }) { first, _ in first })
        result.calledFunctions = log.calls.map(\.toolName)
        result.attemptedCalls = log.attemptedCount
        result.validCalls = log.validCount
        if let first = log.calls.first {
            let mismatch = FunctionCallScorer().mismatch(toolName: first.toolName, arguments: first.arguments, against: functionCallCase.calls)
            result.rightCall = mismatch == nil
            result.mismatch = mismatch?.description
        } else {
            result.mismatch = "no call"
        }
        return result
    }
}
