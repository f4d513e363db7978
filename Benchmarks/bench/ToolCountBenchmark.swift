import Foundation
import LocalModel
import TokenBudget

/// Section "tools" (issue 26 §2): what many tools in one request cost. For 1, 10, 50 and 250
/// generated tools: the definitions' prompt tokens, the time to build and compile the call
/// grammar, generation speed with the grammar active, and time to first token, beside
/// llama-server given the same tools as OpenAI functions through a tool-capable ChatML
/// template (its own grammar for `tool_choice: "required"`). llama.cpp issue 27675 reports
/// about 70 → 30 tokens/s with 263 tools; the goal is that Lantern keeps ≥ 0.9 of its one-tool
/// speed at 250 tools and keeps more of it than the peer.
enum ToolCountBenchmark {
    static let counts = [1, 10, 50, 250]
    /// The cap on the call, on both sides; a call of these tools is 40–90 tokens.
    static let maximumTokens = 128
    /// Windows tried in order; the first that holds the largest prompt is used on both sides.
    static let windows = [8_192, 16_384, 32_768]
    /// Room above Lantern's prompt for the peer's rendering of the same tools (its `tojson`
    /// spaces differently here and there).
    static let peerMargin = 512
    /// A 10-tool request took more than 300 s on the peer with the machine at load 10; a
    /// 32k-token prompt takes about 13 minutes to decode here unloaded.
    static let requestTimeout = 2_400.0
    /// Runs per count and side in a full run; a prompt beyond the trained context (17 minutes a
    /// side to decode at 32K tokens here) runs fewer times.
    static let runs = 3, runsBeyondTrained = 1
    static let instructions = "You operate the company's back-office systems. Call exactly one tool for the user's request."

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
        let allTools = GeneratedTools.make(count: counts.max() ?? 1)
        let question = GeneratedTools.question(for: allTools[0])
        func promptTokens(_ count: Int) throws -> Int {
            try model.tokenizer.tokenize(prompt(model, tools: Array(allTools.prefix(count)), question: question), addSpecial: true).count
        }
        let limit = (windows.last ?? 0) - maximumTokens - peerMargin
        let sizes = try counts.map { (count: $0, tokens: try promptTokens($0)) }
        var fitting = sizes.filter { $0.tokens <= limit }.map(\.count)
        // a count that does not fit is replaced by the most tools that do (prompts grow with the count)
        if let smallestTooLarge = sizes.first(where: { $0.tokens > limit })?.count, let largestFitting = fitting.last {
            var (low, high) = (largestFitting, smallestTooLarge)
            while high - low > 1 {
                let middle = (low + high) / 2
                if try promptTokens(middle) <= limit { low = middle } else { high = middle }
            }
            if low > largestFitting { fitting.append(low) }
        }
        // --quick: the counts whose prompts fit the trained context (about 460 tokens a tool: 1 and 10),
        // so it stays near two minutes; 50 tools are 23k prompt tokens per request and side
        let measured = try environment.quick ? fitting.filter { try promptTokens($0) + maximumTokens <= model.info.trainedContext } : fitting
        let largest = try promptTokens(measured.last ?? 1)
        let window = windows.first { largest + maximumTokens + peerMargin <= $0 } ?? windows[windows.count - 1]
        let context = try model.makeContext(window: ContextWindow(tokens: window), allowBeyondTrainedContext: window > model.info.trainedContext)

        let folder = environment.workDirectory.appendingPathComponent("tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // llama-server caps a slot at the trained context the file states; beyond it, the file's
        // figure is overridden so that the peer gets the same window
        let beyondTrained = window > model.info.trainedContext
            ? ["--override-kv", "\(model.info.architecture).context_length=int:\(window)"] : []
        let server = try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: window,
                                           chatTemplateFile: EndToEndBenchmark.chatMLTemplate, extraArguments: beyondTrained,
                                           logDirectory: folder)
        defer { server.stop() }

        // prefill grows with the square of the prompt (23k tokens take about 7 minutes a side here),
        // so prompts beyond the trained context run once
        func repetitions(_ count: Int) throws -> Int {
            if environment.quick { return 1 }
            return try promptTokens(count) + maximumTokens > model.info.trainedContext ? runsBeyondTrained : runs
        }
        var points: [Point] = []
        for count in measured {
            let tools = Array(allTools.prefix(count))
            let repetitions = try repetitions(count)
            var point = Point(count: count, budget: try budget(model, tools: tools, question: question, window: window))
            for repetition in 0..<repetitions {
                let ours = try await lanternRun(model, context: context, tools: tools, question: question)
                let theirs = try await peerRun(server, tools: tools, question: question)
                point.ours.append(ours)
                point.theirs.append(theirs)
                FileHandle.standardError.write(Data("bench: tools \(count), run \(repetition + 1)/\(repetitions): Lantern \(ours.line); llama-server \(theirs.line)\n".utf8))
            }
            point.free = try await freeSpeed(context, tools: tools, question: question, tokens: point.ours[0].sampledTokens)
            points.append(point)
        }
        let skipped = sizes.filter { !measured.contains($0.count) }
        return report(points, window: window, trained: model.info.trainedContext, architecture: model.info.architecture, skipped: skipped, limit: limit, environment: environment,
                      question: question)
    }

    // MARK: One request, each side

    /// One side's figures for one request.
    struct Run: Sendable {
        var promptTokens = 0
        /// Tokens generated one forward pass each (Lantern's forced call opening excluded).
        var sampledTokens = 0
        var tokensPerSecond = 0.0
        var timeToFirstToken = 0.0
        /// Lantern: building the GBNF from the schemas, and llama.cpp parsing it into a sampler.
        var grammarBuild: Double?
        var grammarCompile: Double?
        var output = ""
        /// The peer: whether its answer held a tool call (Lantern's always does: its grammar forces one).
        var madeCall = true

        var line: String {
            String(format: "%d prompt tokens, %d generated at %.1f tokens/s, first token %.0f ms", promptTokens, sampledTokens,
                   tokensPerSecond, timeToFirstToken)
                + (grammarBuild.map { String(format: ", grammar %.1f + %.1f ms", $0, grammarCompile ?? .nan) } ?? "")
        }
    }

    struct Point: Sendable {
        let count: Int
        let budget: BudgetReport
        var ours: [Run] = []
        var theirs: [Run] = []
        /// Lantern without a grammar, same prompt and token count: what the prompt's length alone costs.
        var free = 0.0
    }

    /// The prompt a session with these tools sends for `question`: its system turn (the
    /// instructions and the tools in the family's layout) and the question.
    static func prompt(_ model: LocalModel, tools: [GrammarBenchmark.EchoTool], question: String) -> RenderedPrompt {
        let session = LanguageModelSession(model: model, tools: tools, instructions: instructions)
        let definitions = tools.map { ToolDefinition(name: $0.name, description: $0.description, parameters: $0.parameters.jsonSchema) }
        return model.chatTemplate.renderedPrompt([ChatMessage(.system, session.systemPrompt), ChatMessage(.user, question, parsesSpecialTokens: false)],
                                                 tools: definitions, thinking: false)
    }

    /// TokenBudget's account of the request, in the window both sides use.
    static func budget(_ model: LocalModel, tools: [GrammarBenchmark.EchoTool], question: String, window: Int) throws -> BudgetReport {
        let session = LanguageModelSession(model: model, tools: tools, instructions: instructions, contextWindow: ContextWindow(tokens: window))
        return try session.budgetReport(for: Prompt(question), options: GenerationOptions(maximumResponseTokens: maximumTokens, toolCallingMode: .required))
    }

    /// A `.required` round as the session runs it: the call grammar compiled from the tools'
    /// schemas (one call), active from the first token, the call's opening forced, greedy, from
    /// an empty cache. Time to first token counts from the start of the grammar's build.
    static func lanternRun(_ model: LocalModel, context: InferenceContext, tools: [GrammarBenchmark.EchoTool], question: String) async throws -> Run {
        let rendered = prompt(model, tools: tools, question: question)
        let syntax = model.chatTemplate.toolLayout.callSyntax
        await context.reset()
        var run = Run()
        let start = ContinuousClock.now
        let grammar = try GrammarCompiler().toolCallGrammar(for: tools.map { .init(name: $0.name, arguments: $0.parameters) },
                                                            syntax: syntax, maximumCalls: 1)
        run.grammarBuild = (ContinuousClock.now - start).seconds * 1_000
        let parameters = GenerationParameters(maximumTokens: maximumTokens, stopStrings: [model.chatTemplate.endOfTurn],
                                              grammar: GrammarConstraint(gbnf: grammar.gbnf, root: grammar.root),
                                              forcedPrefix: syntax.forcedPrefix(toolNames: tools.map(\.name)))
        var first: Duration?
        for try await event in context.generate(prompt: rendered, parameters: parameters) {
            switch event {
            case .text(let piece):
                if first == nil { first = ContinuousClock.now - start }
                run.output += piece
            case .finished(let summary):
                run.promptTokens = summary.promptTokens
                run.sampledTokens = summary.generatedTokens - summary.forcedTokens
                run.tokensPerSecond = Double(run.sampledTokens) / summary.generationDuration.seconds
            }
        }
        run.timeToFirstToken = (first ?? .zero).seconds * 1_000
        // the sampler's compile (llama.cpp parsing the GBNF) is inside generate; timed again alone
        let compileStart = ContinuousClock.now
        try model.validateGrammar(grammar.gbnf, root: grammar.root)
        run.grammarCompile = (ContinuousClock.now - compileStart).seconds * 1_000
        return run
    }

    /// Lantern generating as many tokens from the same prompt with no grammar.
    static func freeSpeed(_ context: InferenceContext, tools: [GrammarBenchmark.EchoTool], question: String, tokens: Int) async throws -> Double {
        let rendered = prompt(context.model, tools: tools, question: question)
        for try await event in context.generate(prompt: rendered, parameters: GenerationParameters(maximumTokens: max(tokens, 1), stopsAtEndOfGeneration: false)) {
            if case .finished(let summary) = event { return Double(summary.generatedTokens) / summary.generationDuration.seconds }
        }
        throw BenchmarkFailure("generation ended without a summary")
    }

    /// The peer: the same instructions, question and tools as OpenAI functions, a call
    /// required, no prompt cache. Time to first token: the request's wall clock less the
    /// server's generation time.
    static func peerRun(_ server: LlamaServer, tools: [GrammarBenchmark.EchoTool], question: String) async throws -> Run {
        let functions = tools.map { ToolDefinition(name: $0.name, description: $0.description, parameters: $0.parameters.jsonSchema).functionObject }
        let messages: [JSONValue] = [["role": "system", "content": .string(instructions)], ["role": "user", "content": .string(question)]]
        let start = ContinuousClock.now
        let reply = try await server.chat(messages: messages, tools: functions, maxTokens: maximumTokens, toolChoice: "required",
                                          cachesPrompt: false, timeout: requestTimeout)
        let wall = (ContinuousClock.now - start).seconds * 1_000
        guard let generation = reply.generationMilliseconds, let speed = reply.generationTokensPerSecond else {
            throw BenchmarkFailure("llama-server's answer has no timings")
        }
        var run = Run(promptTokens: reply.promptTokens, sampledTokens: reply.completionTokens, tokensPerSecond: speed,
                      timeToFirstToken: wall - generation)
        run.output = reply.toolCalls.map { "\($0.name) \($0.arguments)" }.joined(separator: "; ") + reply.content
        run.madeCall = !reply.toolCalls.isEmpty
        return run
    }

    // MARK: Report

    private static func report(_ points: [Point], window: Int, trained: Int, architecture: String, skipped: [(count: Int, tokens: Int)], limit: Int,
                               environment: BenchmarkEnvironment, question: String) -> SectionReport {
        func median(_ runs: [Run], _ value: (Run) -> Double?) -> Double { Sample(runs.compactMap(value)).median }
        var rows: [BenchmarkRow] = []
        for point in points {
            let n = "\(point.count) tool\(point.count == 1 ? "" : "s")"
            let definitions = point.budget.tokens(of: .toolDescription) + point.budget.tokens(of: .toolSchema)
            rows.append(BenchmarkRow(metric: "prompt tokens, \(n)", ours: median(point.ours) { Double($0.promptTokens) },
                                     reference: median(point.theirs) { Double($0.promptTokens) }, unit: "tokens", goal: nil, higherIsBetter: false,
                                     note: "TokenBudget: \(definitions) for the definitions"
                                        + (point.budget.fits ? "" : "; the session would refuse this request in \(window) tokens")))
            rows.append(BenchmarkRow(metric: "grammar build + compile, \(n)", ours: median(point.ours) { ($0.grammarBuild ?? 0) + ($0.grammarCompile ?? 0) },
                                     reference: nil, unit: "ms", goal: nil, higherIsBetter: false,
                                     note: String(format: "build %.1f ms, llama.cpp compile %.1f ms; peer: — (not in its timings; inside its first token)",
                                                  median(point.ours, \.grammarBuild), median(point.ours, \.grammarCompile))))
            let ours = Sample(point.ours.map(\.tokensPerSecond)), theirs = Sample(point.theirs.map(\.tokensPerSecond))
            rows.append(BenchmarkRow(metric: "generation with the grammar, \(n)", ours: ours.median, reference: theirs.median,
                                     unit: "tokens/s", goal: nil, higherIsBetter: true, spread: "ours \(ours.spread); peer \(theirs.spread)",
                                     note: String(format: "Lantern without grammar, same prompt: %.1f tokens/s", point.free)))
            let first = Sample(point.ours.map(\.timeToFirstToken)), peerFirst = Sample(point.theirs.map(\.timeToFirstToken))
            rows.append(BenchmarkRow(metric: "time to first token, \(n)", ours: first.median, reference: peerFirst.median,
                                     unit: "ms", goal: nil, higherIsBetter: false, spread: "ours \(first.spread); peer \(peerFirst.spread)"))
        }
        var notes: [String] = []
        if let one = points.first(where: { $0.count == 1 }), let most = points.last, most.count > 1 {
            let speed = { (runs: [Run]) in Sample(runs.map(\.tokensPerSecond)).median }
            let ours = speed(most.ours) / speed(one.ours), theirs = speed(most.theirs) / speed(one.theirs)
            let free = most.free / one.free
            rows.append(BenchmarkRow(metric: "speed kept at \(most.count) tools (at \(most.count) / at 1)", ours: ours, reference: nil,
                                     unit: "×", goal: 0.9, higherIsBetter: true,
                                     note: String(format: "without grammar: %.2f×", free)
                                        + (ours < 0.9 ? "; missed" + (free < 0.9 ? ": the longer prompt costs as much (attention over it), see notes" : "") : "")))
            rows.append(BenchmarkRow(metric: "speed kept at \(most.count) tools, vs the peer's", ours: ours, reference: theirs,
                                     unit: "×", goal: 1, higherIsBetter: true, note: String(format: "peer at %d / at 1: %.2f×", most.count, theirs)))
            let table = ["| tools | Lantern tokens/s | kept | without grammar | kept | llama-server tokens/s | kept |", "|---:|---:|---:|---:|---:|---:|---:|"]
                + points.map { point in
                    String(format: "| %d | %.1f | %.2f | %.1f | %.2f | %.1f | %.2f |", point.count, speed(point.ours), speed(point.ours) / speed(one.ours),
                           point.free, point.free / one.free, speed(point.theirs), speed(point.theirs) / speed(one.theirs))
                }
            notes.append(table.joined(separator: "\n"))
            if ours < 0.9 {
                notes.append(String(format: "Missed at %d tools (%.2f×): ", most.count, ours)
                    + (free < 0.9
                       ? String(format: "Lantern with no grammar at all keeps only %.2f× on the same prompt, so the time goes to decoding over the longer prompt (each token attends to every prompt token), not to the grammar.", free)
                       : String(format: "with no grammar the same prompt keeps %.2f×, so the grammar sampler costs the difference per token.", free)))
            }
            if ours < theirs {
                let calls = most.theirs.filter(\.madeCall).count
                notes.append(String(format: "Behind the peer's ratio at %d tools (%.2f× against %.2f×): ", most.count, ours, theirs)
                    + (calls < most.theirs.count
                       ? "the peer's answer was a call in \(calls) of \(most.theirs.count) runs (text below), so its speed there is free generation, not a call under its grammar; "
                       : "")
                    + String(format: "Lantern with no grammar on the same prompt makes %.1f tokens/s, %.2f of the peer's %.1f, and %.1f with its call grammar.",
                             most.free, most.free / speed(most.theirs), speed(most.theirs), speed(most.ours)))
            }
        }
        notes.append([
            "Tools: generated by a seeded generator (GeneratedTools), distinct names, 6–10 properties each (a string, an integer, ",
            "a number, a boolean, an enum and a nested object at least, some optional); the counts are prefixes of one list of ",
            "\(counts.max() ?? 0). Question: \"\(question)\". Greedy on both sides, cap \(maximumTokens) tokens, one call, ",
            environment.quick ? "1 run per count and side." : "\(runs) runs per count and side, interleaved, where the prompt fits the trained context ",
            environment.quick ? "" : "(\(trained) tokens), \(runsBeyondTrained) beyond it; medians.",
        ].joined())
        notes.append([
            "Lantern: the session's `.required` round on the engine directly — the session's system turn and rendering, ",
            "`GrammarCompiler.toolCallGrammar` over every tool (one call), active from the first token, the call's opening forced; ",
            "the cache is emptied before each run. Time to first token runs from the start of the grammar's build to the first text. ",
            "Grammar compile: llama.cpp parsing the GBNF into a sampler (`validateGrammar`, the same work the sampler does at the ",
            "start of generation). Tokens/s: tokens generated one forward pass each over the time after prefill.",
        ].joined())
        notes.append([
            "Peer: llama-server --jinja --chat-template-file templates/chatml-tools.jinja -c \(window), the tools as OpenAI ",
            "functions, `tool_choice: \"required\"` (llama.cpp builds its own call grammar from the tools), `cache_prompt: false` ",
            "(both sides decode the whole prompt each run). Tokens/s: its `predicted_per_second`; time to first token: the ",
            "request's wall clock less its `predicted_ms` (template, grammar, tokenizing, prefill, first sample).",
        ].joined())
        notes.append("Window \(window) tokens on both sides" + (window > trained
            ? " (the model was trained with \(trained); Lantern's context is made with allowBeyondTrainedContext, which a session would refuse, and llama-server, which caps a slot at the trained context, is given `--override-kv \(architecture).context_length=int:\(window)`)." : "."))
        if !skipped.isEmpty {
            notes.append("Not measured: " + skipped.map { count, tokens in
                tokens > limit
                    ? "\(count) tools: \(tokens) prompt tokens, more than the largest window tried (\(windows.last ?? 0)) holds with the cap and the peer's margin; the largest count that fits is measured instead" + (environment.quick ? " in a full run" : "")
                    : "\(count) tools (\(tokens) prompt tokens; left out of --quick)"
            }.joined(separator: "; ") + ".")
        }
        let sample = points.last.map { point in "Calls at \(point.count) tools — Lantern: \(point.ours[0].output.replacingOccurrences(of: "\n", with: " ")) — llama-server: \(point.theirs[0].output)" }
        if let sample { notes.append(sample) }
        return SectionReport(
            name: "tools", title: "Tools in one request: 1 to 250 generated tools, Lantern vs llama-server",
            reference: "llama-server --jinja with the ChatML tools template, -t \(environment.threads) -c \(window), the same tools as OpenAI functions, tool_choice required, cache_prompt false",
            rows: rows, notes: notes)
    }
}

/// Tools as a back-office app defines them: a verb and an object as the name, 6–10 arguments
/// of every kind with descriptions, an enum and a nested object in each. The same seed gives
/// the same tools, so every run and both sides see the same definitions.
enum GeneratedTools {
    static let verbs = ["create", "update", "list", "delete", "archive", "schedule", "cancel", "export", "import", "assign",
                        "approve", "reject", "search", "summarize", "share", "tag", "move", "merge", "restore", "notify"]
    static let objects = ["invoice", "shipment", "ticket", "meeting", "contact", "order", "report", "project", "task", "expense",
                          "document", "calendar_event", "reminder", "playlist", "booking", "payment", "device", "campaign",
                          "subscription", "warehouse_item"]

    static let strings: [(String, GenerationSchema)] = [
        ("title", .string(description: "A short title for the record", maxLength: 60)),
        ("note", .string(description: "Free text stored with the record", maxLength: 200)),
        ("owner_email", .string(description: "Email address of the person responsible", maxLength: 80)),
        ("reference", .string(description: "External reference code, e.g. PO-2291", pattern: "[A-Z]{2,4}-[0-9]{3,6}")),
        ("customer_name", .string(description: "Full name of the customer", maxLength: 80)),
        ("location", .string(description: "Place, room or address where it happens", maxLength: 120)),
    ]
    static let integers: [(String, GenerationSchema)] = [
        ("quantity", .integer(description: "How many units", in: 1...500)),
        ("priority_level", .integer(description: "1 is most urgent, 5 least", in: 1...5)),
        ("duration_minutes", .integer(description: "Length in minutes", in: 5...480)),
        ("page_size", .integer(description: "Results per page", in: 1...100)),
        ("retry_count", .integer(description: "How often to retry on failure", in: 0...10)),
    ]
    static let numbers: [(String, GenerationSchema)] = [
        ("amount", .number(description: "Amount in the chosen currency", in: 0...100_000)),
        ("discount_percent", .number(description: "Discount from 0 to 100 percent", in: 0...100)),
        ("weight_kg", .number(description: "Weight in kilograms", in: 0...1_000)),
        ("budget_limit", .number(description: "Most that may be spent", minimum: 0)),
    ]
    static let booleans: [(String, GenerationSchema)] = [
        ("notify_owner", .boolean(description: "Send the owner a notification")),
        ("include_archived", .boolean(description: "Also consider archived records")),
        ("dry_run", .boolean(description: "Validate only; change nothing")),
        ("urgent", .boolean(description: "Mark as urgent")),
    ]
    static let enums: [(String, GenerationSchema)] = [
        ("status", .string(description: "Workflow state", anyOf: ["draft", "active", "on_hold", "done", "cancelled"])),
        ("currency", .string(description: "ISO currency code", anyOf: ["EUR", "USD", "GBP", "JPY", "CHF"])),
        ("visibility", .string(description: "Who can see it", anyOf: ["private", "team", "company", "public"])),
        ("channel", .string(description: "How to deliver messages", anyOf: ["email", "sms", "push", "slack"])),
        ("sort_order", .string(description: "Order of results", anyOf: ["newest", "oldest", "relevance", "alphabetical"])),
    ]
    static let date = GenerationSchema.string(description: "A date, YYYY-MM-DD", pattern: "[0-9]{4}-[0-9]{2}-[0-9]{2}")
    static let objectProperties: [(String, GenerationSchema)] = [
        ("address", .object([
            .property("street", .string(description: "Street and number", maxLength: 80)),
            .property("city", .string(description: "City", maxLength: 40)),
            .property("postal_code", .string(description: "Postal code", maxLength: 12)),
            .property("country", .string(description: "Country code", anyOf: ["DE", "FR", "GB", "US", "CH"]), optional: true),
        ], description: "Postal address")),
        ("date_range", .object([
            .property("from", date), .property("to", date),
        ], description: "Period the request covers")),
        ("recipient", .object([
            .property("name", .string(description: "Recipient's name", maxLength: 60)),
            .property("email", .string(description: "Recipient's email", maxLength: 80)),
            .property("role", .string(description: "Recipient's role", anyOf: ["owner", "reviewer", "watcher"])),
        ], description: "Who receives it")),
        ("schedule", .object([
            .property("date", date),
            .property("time", .string(description: "Time of day, HH:MM", pattern: "[0-2][0-9]:[0-5][0-9]")),
            .property("repeat", .string(description: "Repetition", anyOf: ["none", "daily", "weekly", "monthly"])),
        ], description: "When it happens")),
    ]

    /// `count` tools (at most verbs × objects), the same ones for the same seed.
    static func make(count: Int, seed: UInt64 = 26) -> [GrammarBenchmark.EchoTool] {
        var generator = IndexBenchmark.Generator(state: seed)
        var names = verbs.flatMap { verb in objects.map { (verb, $0) } }
        for index in names.indices.reversed() { names.swapAt(index, generator.below(index + 1)) }
        return names.prefix(count).map { verb, object in
            let kinds = [strings, integers, numbers, booleans, enums]
            // one of each kind and a nested object, then 0–4 more of any kind, without repeats
            var chosen = kinds.map { $0[generator.below($0.count)] } + [objectProperties[generator.below(objectProperties.count)]]
            var extra = kinds.flatMap { $0 }.filter { candidate in !chosen.contains { $0.0 == candidate.0 } }
            for _ in 0..<generator.below(5) where !extra.isEmpty { chosen.append(extra.remove(at: generator.below(extra.count))) }
            let properties = chosen.enumerated().map { index, property in
                GenerationSchema.Property.property(property.0, property.1, optional: index >= 3 && generator.below(3) == 0)
            }
            let readable = object.replacingOccurrences(of: "_", with: " ")
            return GrammarBenchmark.EchoTool(name: "\(verb)_\(object)",
                                             description: "\(verb.prefix(1).uppercased() + verb.dropFirst()) \(readable) records in the back-office system and return their identifiers.",
                                             parameters: .object(properties))
        }
    }

    /// A request the first tool answers (it is among the tools at every count).
    static func question(for tool: GrammarBenchmark.EchoTool) -> String {
        let words = tool.name.replacingOccurrences(of: "_", with: " ")
        return "Please \(words) for Ada Lovelace, 3 units, urgent, at 12 Analytical Street, London."
    }
}
