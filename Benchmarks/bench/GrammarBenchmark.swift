import Foundation
import LocalModel
import TokenBudget

/// Sections "grammar" and "prefix-cache" (issue 3): what grammar-constrained tool calls cost
/// in generation speed, and what the prefix cache saves on a session's second question.
enum GrammarBenchmark {
    static func run(_ environment: BenchmarkEnvironment) async throws -> [SectionReport] {
        let repetitions = environment.quick ? 3 : 7
        return [
            try await grammarOverhead(environment, repetitions: repetitions),
            try await prefixCache(environment, repetitions: environment.quick ? 2 : 5),
        ]
    }

    // MARK: Grammar on vs off

    /// A search tool's arguments, about as demanding as the real one's common fields.
    static let searchArguments: GenerationSchema = .object([
        .property("query", .string(description: "Words to search for in the user's notes", maxLength: 80)),
        .property("kind", .string(description: "What to search", anyOf: ["notes", "trails", "photos"])),
        .property("limit", .integer(description: "Most results", in: 1...20)),
        .property("since", .string(description: "Earliest date, YYYY-MM-DD", pattern: "[0-9]{4}-[0-9]{2}-[0-9]{2}"), optional: true),
    ])

    static let tools: [(name: String, description: String, arguments: GenerationSchema)] = [
        ("spotlight_search", "Searches the user's notes, trails and photos; returns titles, dates and snippets.", searchArguments),
        ("fetch", "Returns the full text of one item found by spotlight_search.", .object([
            .property("identifier", .string(description: "The item's identifier from a search result", maxLength: 40)),
        ])),
        ("weather", "Current weather and forecast for a place.", .object([
            .property("place", .string(description: "A town or trailhead", maxLength: 40)),
            .property("days", .integer(description: "Days of forecast", in: 1...7), optional: true),
        ])),
    ]

    /// The prompt a session would send, in the model's own chat and tool layout.
    static func prompt(_ model: LocalModel, question: String) -> String {
        let definitions = tools.map { ToolDefinition(name: $0.name, description: $0.description, parameters: $0.arguments.jsonSchema) }
        let instructions = "You help hikers with their own notes. Search before answering; quote dates exactly."
        let template = model.chatTemplate
        return template.render([ChatMessage(.system, template.systemText(instructions: instructions, tools: definitions, thinking: false)),
                                ChatMessage(.user, question)], tools: definitions, thinking: false)
    }

    static func grammarOverhead(_ environment: BenchmarkEnvironment, repetitions: Int) async throws -> SectionReport {
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
        let context = try model.makeContext(window: .k4)
        let text = prompt(model, question: "When did I last hike the Alpine Loop? Search my trail notes since 2023.")
        let grammar = try GrammarCompiler().toolCallGrammar(for: tools.map { .init(name: $0.name, arguments: $0.arguments) },
                                                            syntax: model.chatTemplate.toolLayout.callSyntax, maximumCalls: 1)
        let constraint = GrammarConstraint(gbnf: grammar.gbnf, root: grammar.root)   // as toolCallingMode .required

        func generate(_ parameters: GenerationParameters) async throws -> (GenerationSummary, String) {
            var output = ""
            for try await event in context.generate(prompt: text, parameters: parameters) {
                switch event {
                case .text(let piece): output += piece
                case .finished(let summary): return (summary, output)
                }
            }
            throw BenchmarkFailure("generation ended without a summary")
        }
        // The constrained call sets the length; the unconstrained side generates exactly as many
        // tokens from the same prompt (greedy both), so both sides do the same number of decodes.
        let (first, call) = try await generate(GenerationParameters(maximumTokens: 160, grammar: constraint))
        let length = first.generatedTokens
        var on: [Double] = [], off: [Double] = []
        for _ in 0..<repetitions {
            let (constrained, _) = try await generate(GenerationParameters(maximumTokens: 160, grammar: constraint))
            on.append(Double(constrained.generatedTokens) / constrained.generationDuration.seconds)
            let (free, _) = try await generate(GenerationParameters(maximumTokens: length, stopsAtEndOfGeneration: false))
            off.append(Double(free.generatedTokens) / free.generationDuration.seconds)
        }
        let (ours, reference) = (Sample(on), Sample(off))
        return SectionReport(
            name: "grammar",
            title: "Grammar overhead: tool-call generation with the grammar on vs off",
            reference: "the same prompt and context without the grammar, \(length) tokens each side, greedy, \(repetitions) interleaved runs; medians",
            rows: [
                BenchmarkRow(metric: "generation with the tool-call grammar (\(length) tokens)", ours: ours.median, reference: reference.median,
                             unit: "tokens/s", goal: 0.9, higherIsBetter: true,
                             spread: "on \(ours.spread); off \(reference.spread)"),
            ],
            notes: [
                "The grammar is immediate (as under toolCallingMode .required) over \(tools.count) tools; the engine samples first and applies the full grammar mask only when the chosen token is rejected.",
                "Constrained output: \(call.replacingOccurrences(of: "\n", with: " "))",
            ])
    }

    // MARK: Prefix cache

    /// A tool that only has to be described: the questions below are answered without calls.
    struct EchoTool: Tool {
        struct Arguments: ConvertibleFromGeneratedContent {
            let content: GeneratedContent
            init(_ content: GeneratedContent) { self.content = content }
        }
        let name: String
        let description: String
        let parameters: GenerationSchema
        func call(arguments: Arguments) async throws -> String { arguments.content.jsonString }
    }

    static func prefixCache(_ environment: BenchmarkEnvironment, repetitions: Int) async throws -> SectionReport {
        let instructions = """
            You help hikers plan trips from their own notes. Search the notes before answering, \
            quote dates and distances exactly as written, name the note you used, and say so plainly \
            when the notes do not answer the question. Keep answers to two or three sentences.
            """
        let sessionTools = tools.map { EchoTool(name: $0.name, description: $0.description, parameters: $0.arguments) }
        let options = GenerationOptions(maximumResponseTokens: 16, toolCallingMode: .disallowed)
        var firsts: [Double] = [], seconds: [Double] = []
        var prefixTokens = 0, cached = 0
        for _ in 0..<repetitions {
            // a fresh model each time: its context pool is empty, so the first question is cold
            let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
            let session = LanguageModelSession(model: model, tools: sessionTools, instructions: instructions, contextWindow: .k4)
            func timeToFirstToken(_ question: String) async throws -> (Double, LanguageModelSession.Usage) {
                let start = ContinuousClock.now
                var first: Duration?
                let stream = session.streamResponse(to: question, options: options)
                for try await _ in stream where first == nil { first = ContinuousClock.now - start }
                let response = try await stream.collect()
                guard let first else { throw BenchmarkFailure("the model wrote nothing visible for \"\(question)\"") }
                return (first.seconds * 1_000, response.usage)
            }
            let (cold, coldUsage) = try await timeToFirstToken("Which trail near the lake did I like most?")
            let (warm, warmUsage) = try await timeToFirstToken("And how long was it?")
            firsts.append(cold)
            seconds.append(warm)
            prefixTokens = coldUsage.promptTokens
            cached = warmUsage.cachedTokens
        }
        let (ours, reference) = (Sample(seconds), Sample(firsts))
        return SectionReport(
            name: "prefix-cache",
            title: "Prefix cache: time to first token of a session's second question",
            reference: "the session's first question (instructions and \(tools.count) tools, \(prefixTokens) prompt tokens, nothing cached), fresh model per run, \(repetitions) runs; medians",
            rows: [
                BenchmarkRow(metric: "time to first token, second question", ours: ours.median, reference: reference.median,
                             unit: "ms", goal: 0.1, higherIsBetter: false,
                             spread: "second \(ours.spread); first \(reference.spread)",
                             note: "\(cached) of the second prompt's tokens came from the cache"),
            ],
            notes: ["Measured from streamResponse to its first snapshot: budget check, rendering, prefill and the first visible token; toolCallingMode .disallowed, greedy."])
    }
}
