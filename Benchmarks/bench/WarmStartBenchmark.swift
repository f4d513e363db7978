import Evaluations
import Foundation
import LocalModel
import SearchTool

/// Section "warm-start" (issue 48 item 1): how soon a fresh `ask` process starts answering when
/// the KV state of its system turn (instructions and tool definitions) is loaded from the prompt
/// cache on disk, against the same question asked in a process that is already warm, against a
/// fresh process that decodes everything (`--no-prompt-cache`), and against llama-server
/// restoring a slot it saved (`--slot-save-path`) in a new server process.
///
/// Time to first token, on every side, is from the question to the first text the model
/// generates in the first round: Lantern's `Response.Usage.timeToFirstGeneratedText` (`ask
/// --json`'s `timings.firstGenerated`), llama-server's own `timings.prompt_ms` (the prompt decoded
/// and the first token sampled), plus its `restore_ms` when a slot was restored for it. Not the
/// first text of the answer (`timings.firstToken`), which a search round and its tool output
/// lengthen: the prompt cache only changes the first round's prompt. Loading the model is outside
/// every figure (the notes give it), since the cache cannot change it.
///
/// The warm reference asks another sample question first, so the process's cache holds the
/// system turn and not the measured question, which is what the disk gives a fresh process: the
/// same question again would find its own tokens in the cache too. Sides are interleaved
/// repetition by repetition, so whatever else the machine does affects them alike.
enum WarmStartBenchmark {
    /// A fresh process warm from disk may take at most this much of the warm in-process time to
    /// first token (issue 48).
    static let goal = 1.5
    /// The question every side is timed on, and the one the warm process answers before it.
    static let question = 0, warmUpQuestion = 1
    /// The most one `ask` process may take: loading, the sample index (the first run), and the
    /// whole answer, which for a 1.5B model decoding cold on 2 shared cores took over 240 s.
    static let processTimeout = 900.0

    /// One `ask --json` process: its time to first token and what its report says about the cache.
    struct AskRun {
        var firstToken: Double
        var restored: Int
        var load: Double
        /// Spawn to exit, as the harness sees it.
        var wallSeconds: Double
    }

    /// One llama-server round: cold in a new server, then restored in another new server.
    struct ServerRun {
        var coldFirstToken: Double
        var savedTokens: Int
        var restoreSeconds: Double
        var restoredTokens: Int
        /// `prompt_ms` of the request after the restore, and the tokens it found in the cache.
        var restoredPromptSeconds: Double
        var cachedTokens: Int
        /// The two requests' times on the wire (request sent to answer read).
        var coldWireSeconds: Double
        var restoredWireSeconds: Double
        var restoredFirstToken: Double { restoreSeconds + restoredPromptSeconds }
    }

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let ask = try BenchmarkEnvironment.askBinary()
        let fixture = try await EndToEndBenchmark.Fixture(environment: environment)
        defer { fixture.remove() }
        let samples = try SampleReader().samples(contentsOf: SampleData.trailsSamples)
        let (question, warmUp) = (samples[Self.question].prompt, samples[warmUpQuestion].prompt)
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
        let window = model.defaultContextWindow
        let repetitions = environment.quick ? 2 : 5

        // ask over the built-in sample, as a user runs it; one data folder, so its index is built once
        let dataHome = fixture.folder.appendingPathComponent("xdg-data")
        let warmCache = fixture.folder.appendingPathComponent("cache-warm")
        let askArguments = ["--model", environment.modelURL.path, "--threads", String(environment.threads),
                            "--max-tokens", String(EndToEndBenchmark.maximumResponseTokens), "--json", question]
        // unmeasured: builds the index and saves the system turn's state for the warm runs
        let filling = try await askRun(ask, askArguments, dataHome: dataHome, cache: warmCache, logs: fixture.folder)
        guard filling.restored == 0 else { throw BenchmarkFailure("the first ask restored \(filling.restored) tokens from an empty cache") }
        let stateBytes = try folderBytes(warmCache)

        let prompts = serverPrompts(question, setup: fixture.setup, model: model)
        let slots = fixture.folder.appendingPathComponent("slots")
        try FileManager.default.createDirectory(at: slots, withIntermediateDirectories: true)

        var warmInProcess: [Double] = [], cold: [AskRun] = [], warm: [AskRun] = [], server: [ServerRun] = []
        for repetition in 1...repetitions {
            let progress = "bench: warm-start \(repetition)/\(repetitions)"
            warmInProcess.append(try await inProcessFirstToken(question, after: warmUp, setup: fixture.setup, model: model))
            FileHandle.standardError.write(Data(String(format: "%@, warm in one process: %.3f s\n", progress, warmInProcess.last!).utf8))
            let emptyCache = fixture.folder.appendingPathComponent("cache-empty-\(repetition)")
            cold.append(try await askRun(ask, ["--no-prompt-cache"] + askArguments, dataHome: dataHome, cache: emptyCache, logs: fixture.folder))
            FileHandle.standardError.write(Data(String(format: "%@, fresh ask, cold: %.3f s\n", progress, cold.last!.firstToken).utf8))
            warm.append(try await askRun(ask, askArguments, dataHome: dataHome, cache: warmCache, logs: fixture.folder))
            FileHandle.standardError.write(Data(String(format: "%@, fresh ask, warm from disk: %.3f s (%d tokens restored)\n", progress,
                                                       warm.last!.firstToken, warm.last!.restored).utf8))
            guard warm.last!.restored > 0 else {
                throw BenchmarkFailure("a fresh ask with the cache filled restored 0 tokens: the saved system turn was not loaded")
            }
            server.append(try await serverRun(prompts, environment: environment, window: window.tokens, slots: slots, logs: fixture.folder))
            FileHandle.standardError.write(Data(String(format: "%@, llama-server: cold %.3f s, restored %.3f s\n", progress,
                                                       server.last!.coldFirstToken, server.last!.restoredFirstToken).utf8))
        }

        let reference = Sample(warmInProcess.map { $0 * 1_000 })
        let coldTTFT = Sample(cold.map { $0.firstToken * 1_000 }), warmTTFT = Sample(warm.map { $0.firstToken * 1_000 })
        let serverCold = Sample(server.map { $0.coldFirstToken * 1_000 }), serverRestored = Sample(server.map { $0.restoredFirstToken * 1_000 })
        let median = { (values: [Double]) in Sample(values).median }
        let rows = [
            BenchmarkRow(metric: "time to first token: fresh ask warm from disk vs warm in one process", ours: warmTTFT.median,
                         reference: reference.median, unit: "ms", goal: goal, higherIsBetter: false,
                         spread: "ours \(warmTTFT.spread); reference \(reference.spread)",
                         note: "\(Int(median(warm.map { Double($0.restored) }))) tokens restored"),
            BenchmarkRow(metric: "time to first token: fresh ask cold (--no-prompt-cache) vs warm in one process", ours: coldTTFT.median,
                         reference: reference.median, unit: "ms", goal: nil, higherIsBetter: false,
                         spread: "ours \(coldTTFT.spread); reference \(reference.spread)"),
            BenchmarkRow(metric: "time to first token: fresh ask warm from disk vs llama-server restoring a saved slot in a new process",
                         ours: warmTTFT.median, reference: serverRestored.median, unit: "ms", goal: nil, higherIsBetter: false,
                         spread: "ours \(warmTTFT.spread); llama-server \(serverRestored.spread)"),
            BenchmarkRow(metric: "time to first token: fresh ask cold vs llama-server cold in a new process", ours: coldTTFT.median,
                         reference: serverCold.median, unit: "ms", goal: nil, higherIsBetter: false,
                         spread: "ours \(coldTTFT.spread); llama-server \(serverCold.spread)"),
        ]
        let restoredTokens = Int(median(warm.map { Double($0.restored) }))
        let serverSaved = Int(median(server.map { Double($0.savedTokens) }))
        let notes = [
            "Question: \"\(question)\" (trails-samples.jsonl), asked \(repetitions) times per side, interleaved; medians. "
                + "Time to first token: from the question to the first text the model generates in its first round (Lantern: "
                + "`Response.Usage.timeToFirstGeneratedText`, `ask --json` `timings.firstGenerated`; the round is `.required`, so "
                + "that text is the call's forced opening, decoded in the prompt's batch, and the time is the prompt's rendering "
                + "and decoding, or its state's restore and the question's decoding). Not the answer's first text "
                + "(`timings.firstToken`), which the search round lengthens alike on every side. Model loading is in no figure.",
            "Warm in one process (the reference): the bench's own `LocalModel` (same threads, no prompt cache) and a fresh session "
                + "per question built as `ask` builds it (`SearchSetup` over the sample index, focused guide, structured format); "
                + "another sample question (\"\(warmUp)\") is answered first, so the cache holds the system turn but not the measured "
                + "question, as after a restore from disk.",
            "Fresh ask: the release `ask` binary as a child process over the built-in sample (`\(askArguments.dropLast().joined(separator: " ")) QUESTION`), "
                + "XDG_DATA_HOME shared (the sample index built once, unmeasured); cold: `--no-prompt-cache` and an empty XDG_CACHE_HOME; "
                + "warm: the XDG_CACHE_HOME an unmeasured ask filled before the first repetition "
                + String(format: "(%.1f MB of prompt states on disk). ", Double(stateBytes) / 1e6)
                + "Restored tokens per warm run: \(warm.map { String($0.restored) }.joined(separator: ", ")). "
                + String(format: "Median model load (`timings.load`): cold %.2f s, warm %.2f s; spawn to exit: cold %.1f s, warm %.1f s.",
                         median(cold.map(\.load)), median(warm.map(\.load)), median(cold.map(\.wallSeconds)), median(warm.map(\.wallSeconds))),
            String(format: "Where the restore goes: the fresh ask warm from disk starts %.0f ms after the warm process (the restore of the "
                           + "system turn's state and the first decode of a new process), and %.0f ms before the cold one (the system turn's decode).",
                   warmTTFT.median - reference.median, coldTTFT.median - warmTTFT.median),
            "llama-server (Debian's, `-t \(environment.threads) -c \(window.tokens) -np 1 --slot-save-path`): /completion with the prompt "
                + "Lantern's session renders for the question's first round (system turn with the tool definitions, the question, the "
                + "assistant's opening), `n_predict` 1, `cache_prompt`, greedy, no grammar. Cold: the first request to a newly started "
                + "server; its time is `timings.prompt_ms`. Then the system turn alone is sent (`n_predict` 0, so the slot keeps just "
                + "its \(serverSaved) tokens; Lantern restored \(restoredTokens)), the slot saved (`POST /slots/0?action=save`), the server "
                + "stopped, a new one started, the slot restored (`action=restore`) and the same request sent: its time is the restore's "
                + "`restore_ms` plus the request's `prompt_ms`, both the server's own timings. "
                + String(format: "Medians: restore %.1f ms (%d tokens), then prompt %.1f ms with %d tokens cached; on the wire %.0f ms cold "
                               + "and %.0f ms after the restore (restore not included). ",
                         median(server.map { $0.restoreSeconds * 1_000 }), Int(median(server.map { Double($0.restoredTokens) })),
                         median(server.map { $0.restoredPromptSeconds * 1_000 }), Int(median(server.map { Double($0.cachedTokens) })),
                         median(server.map { $0.coldWireSeconds * 1_000 }), median(server.map { $0.restoredWireSeconds * 1_000 }))
                + "Not the same work to the token: Lantern decodes its forced call opening with the prompt and samples nothing "
                + "before the first text; the server samples one token. The server also warms up when it starts (one empty decode "
                + "before /health answers), so its first request does not pay a new process's first decode.",
        ]
        // one block per model in RESULTS.md: the goal is checked on the panel's small and large models
        return SectionReport(
            name: "warm-start/\(environment.modelURL.lastPathComponent)",
            title: "Warm start (\(environment.modelURL.lastPathComponent)): a fresh process's time to first token with the prompt cache",
            reference: "the same question in one warm process (Lantern in-process), and llama-server -t \(environment.threads) "
                + "-c \(window.tokens) restoring its saved slot in a new process",
            rows: rows, notes: notes)
    }

    // MARK: The sides

    /// The warm reference: `warmUp` answered in a fresh session on `model`, then `question` in
    /// another; the second's time to first token, in seconds.
    static func inProcessFirstToken(_ question: String, after warmUp: String, setup: SearchSetup, model: LocalModel) async throws -> Double {
        _ = try await answer(warmUp, setup: setup, model: model)
        guard let firstToken = try await answer(question, setup: setup, model: model).timeToFirstGeneratedText else {
            throw BenchmarkFailure("the in-process session generated no text for \"\(question)\"")
        }
        return firstToken.seconds
    }

    /// One question in a fresh session, as `ask` answers it. The session ends on return, so its
    /// context goes back to the model's pool, with its cache, for the next one.
    static func answer(_ question: String, setup: SearchSetup, model: LocalModel) async throws -> LanguageModelSession.Usage {
        let (session, tool) = setup.makeSession(model: model, window: nil, thinking: false)
        defer { tool.finish() }
        let options = GenerationOptions(maximumResponseTokens: EndToEndBenchmark.maximumResponseTokens, toolCallingMode: .required)
        return try await withDeadline(seconds: EndToEndBenchmark.questionTimeout, "Lantern's answer") {
            try await session.respond(to: question, options: options).usage
        }
    }

    /// What `ask --json` reports that this section reads.
    struct AskReport: Decodable {
        struct Timings: Decodable { let load: Double; let firstGenerated: Double? }
        struct Tokens: Decodable { let restored: Int }
        let timings: Timings
        let tokens: Tokens
        let notes: [String]
    }

    /// Runs `ask` with XDG_CACHE_HOME at `cache` (where its prompt cache lives) and reads its
    /// `--json` report; throws on a failed run, a report without a first token, or a note that
    /// the prompt cache could not be used.
    static func askRun(_ ask: URL, _ arguments: [String], dataHome: URL, cache: URL, logs: URL) async throws -> AskRun {
        let start = ContinuousClock.now
        let child = try ReliabilityBenchmark.Child(ask, arguments, home: dataHome, environment: ["XDG_CACHE_HOME": cache.path], logs: logs)
        let output = try await ReliabilityBenchmark.waitAll([child], timeout: processTimeout)[0].output
        let wallSeconds = (ContinuousClock.now - start).seconds
        // stderr shares the log: the report is the pretty-printed object from its own "{" line on
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let open = lines.firstIndex(of: "{"),
              let report = try? JSONDecoder().decode(AskReport.self, from: Data(lines[open...].joined(separator: "\n").utf8)) else {
            throw BenchmarkFailure("ask printed no readable --json report: \(output.suffix(400))")
        }
        guard report.notes.isEmpty else { throw BenchmarkFailure("ask's prompt cache was not used: \(report.notes.joined(separator: "; "))") }
        guard let firstToken = report.timings.firstGenerated else { throw BenchmarkFailure("ask reported no timings.firstGenerated") }
        return AskRun(firstToken: firstToken, restored: report.tokens.restored, load: report.timings.load, wallSeconds: wallSeconds)
    }

    /// The text llama-server is sent: the first round's prompt, and the system turn alone,
    /// rendered as the session renders them (`LanguageModelSession.systemPrompt` holds the
    /// instructions and the tool definitions in the family's layout).
    static func serverPrompts(_ question: String, setup: SearchSetup, model: LocalModel) -> (question: String, systemTurn: String) {
        let (session, tool) = setup.makeSession(model: model, window: nil, thinking: false)
        defer { tool.finish() }
        let tools: [any Tool] = [tool, tool.fetchTool]
        let definitions = tools.map {
            ToolDefinition(name: $0.name, description: $0.description, parameters: $0.includesSchemaInInstructions ? $0.parameters.jsonSchema : nil)
        }
        let system = ChatMessage(.system, session.systemPrompt)
        return (model.chatTemplate.render([system, ChatMessage(.user, question, parsesSpecialTokens: false)], tools: definitions, thinking: false),
                model.chatTemplate.render([system], tools: definitions, addAssistantPrefix: false))
    }

    /// llama-server cold in a new process, the system turn saved from its slot, then restored
    /// in another new process before the same request.
    static func serverRun(_ prompts: (question: String, systemTurn: String), environment: BenchmarkEnvironment, window: Int,
                          slots: URL, logs: URL) async throws -> ServerRun {
        let timeout = EndToEndBenchmark.questionTimeout
        let request: JSONObject = ["prompt": .string(prompts.question), "n_predict": 1, "temperature": 0, "cache_prompt": true, "stream": false]
        let file = "system-turn.bin"
        func started() async throws -> LlamaServer {
            try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: window,
                                  extraArguments: ["--slot-save-path", slots.path + "/"], logDirectory: logs)
        }
        func timed(_ server: LlamaServer) async throws -> (reply: JSONValue, wire: Double) {
            let start = ContinuousClock.now
            let reply = try await server.complete(request, timeout: timeout)
            return (reply, (ContinuousClock.now - start).seconds)
        }

        let first = try await started()
        defer { first.stop() }
        let cold = try await timed(first)
        _ = try await first.complete(["prompt": .string(prompts.systemTurn), "n_predict": 0, "cache_prompt": true], timeout: timeout)
        let saved = try await first.slot(0, "save", filename: file, timeout: timeout)
        first.stop()

        let second = try await started()
        defer { second.stop() }
        let restore = try await second.slot(0, "restore", filename: file, timeout: timeout)
        let restored = try await timed(second)
        let milliseconds = { (value: JSONValue?, what: String) throws -> Double in
            guard let value = value?.doubleValue else { throw BenchmarkFailure("llama-server's answer has no \(what)") }
            return value / 1_000
        }
        return ServerRun(coldFirstToken: try milliseconds(cold.reply["timings"]?["prompt_ms"], "timings.prompt_ms"),
                         savedTokens: saved["n_saved"]?.intValue ?? 0,
                         restoreSeconds: try milliseconds(restore["timings"]?["restore_ms"], "timings.restore_ms"),
                         restoredTokens: restore["n_restored"]?.intValue ?? 0,
                         restoredPromptSeconds: try milliseconds(restored.reply["timings"]?["prompt_ms"], "timings.prompt_ms"),
                         cachedTokens: restored.reply["timings"]?["cache_n"]?.intValue ?? 0,
                         coldWireSeconds: cold.wire, restoredWireSeconds: restored.wire)
    }

    /// Bytes of the files under `folder`.
    static func folderBytes(_ folder: URL) throws -> Int {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).reduce(0) { total, path in
            total + ((try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.size] as? Int) ?? 0)
        }
    }
}
