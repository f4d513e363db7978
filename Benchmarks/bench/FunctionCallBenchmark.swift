import Evaluations
import Foundation
import LocalModel
import TokenBudget

/// Section "calls" (issue 30 §4): the shipped function-calling cases through Lantern — the run
/// `eval --calls builtin` makes (`FunctionCallEvaluation`) — and through `llama-server` with the
/// call forced by `response_format`, the strongest constrained peer: same model file, threads,
/// context, token cap and greedy decoding, the same prompt text, and both sides' calls scored
/// by the same `FunctionCallScorer`. Cases are interleaved (each on both sides before the next),
/// so whatever else the machine does affects both alike.
enum FunctionCallBenchmark {
    /// The cap on the call round, on both sides: `eval --calls`' default for the model's window
    /// (the session's min(512, window / 4) at 2K and more).
    static let maximumResponseTokens = 512
    /// The most one side may take for one case before it is stopped and the case counted as failed.
    static let caseTimeout = 120.0
    /// Cases in a `--quick` run (the first ones of function-calls.jsonl).
    static let quickCaseCount = 10

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let all = try FunctionCallCaseReader().cases(contentsOf: SampleData.functionCalls)
        let cases = environment.quick ? Array(all.prefix(quickCaseCount)) : all
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
        let window = model.defaultContextWindow
        let folder = environment.workDirectory.appendingPathComponent("calls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: window.tokens, logDirectory: folder)
        defer { server.stop() }
        let evaluation = FunctionCallEvaluation(model: model, configuration: .init(maximumResponseTokens: maximumResponseTokens, contextWindow: window))

        var ours: [FunctionCallResult] = [], theirs: [FunctionCallResult] = []
        var samePromptLength = 0
        var peerInvalid: [String] = []
        for (number, functionCallCase) in cases.enumerated() {
            let prefix = "bench: calls case \(number + 1)/\(cases.count) \(functionCallCase.id)"
            let lantern = await lanternResult(functionCallCase, evaluation: evaluation)
            ours.append(lantern)
            FileHandle.standardError.write(Data("\(prefix), Lantern: \(line(lantern))\n".utf8))
            guard let peer = await peerResult(functionCallCase, evaluation: evaluation, server: server) else {
                FileHandle.standardError.write(Data("\(prefix), llama-server: not asked (no shared prompt)\n".utf8))
                continue
            }
            theirs.append(peer.result)
            if let reason = peer.invalidReason { peerInvalid.append("\(functionCallCase.id) (\(reason))") }
            if peer.result.tokens.prompt == lantern.tokens.prompt { samePromptLength += 1 }
            FileHandle.standardError.write(Data("\(prefix), llama-server: \(line(peer.result))\n".utf8))
        }
        return report(ours: FunctionCallReport(results: ours), theirs: FunctionCallReport(results: theirs), window: window,
                      environment: environment, samePromptLength: samePromptLength, peerInvalid: peerInvalid)
    }

    // MARK: The two sides

    /// Lantern: one case of `eval --calls`, under the section's deadline.
    static func lanternResult(_ functionCallCase: FunctionCallCase, evaluation: FunctionCallEvaluation) async -> FunctionCallResult {
        let start = ContinuousClock.now
        do {
            return try await withDeadline(seconds: caseTimeout, "Lantern's call") { await evaluation.run(functionCallCase) }
        } catch {
            var result = FunctionCallResult(caseID: functionCallCase.id, error: String(describing: error))
            result.latency = Latency(total: (ContinuousClock.now - start).seconds)
            result.score(firstCall: nil, against: functionCallCase.calls)
            return result
        }
    }

    /// The peer's result and, when its call is not valid, why; nil when the case cannot be
    /// asked with Lantern's prompt (Lantern refused one of its schemas, so it has no tool
    /// definitions to write).
    static func peerResult(_ functionCallCase: FunctionCallCase, evaluation: FunctionCallEvaluation,
                           server: LlamaServer) async -> (result: FunctionCallResult, invalidReason: String?)? {
        guard let tools = try? functionCallCase.tools.map({ definition throws(SchemaError) in
            try DynamicTool(name: definition.name, description: definition.description, jsonSchema: definition.parameters)
        }) else { return nil }
        // the system turn exactly as Lantern's session writes it (the session is not run)
        let systemPrompt = LanguageModelSession(model: evaluation.model, tools: tools, instructions: evaluation.configuration.instructions).systemPrompt
        let messages: [JSONValue] = [["role": "system", "content": .string(systemPrompt)],
                                     ["role": "user", "content": .string(functionCallCase.question)]]
        var result = FunctionCallResult(caseID: functionCallCase.id)
        let start = ContinuousClock.now
        do {
            let reply = try await server.chat(messages: messages, tools: [], maxTokens: maximumResponseTokens,
                                              responseFormat: forcedCall(functionCallCase.tools), timeout: caseTimeout)
            result.latency = Latency(total: (ContinuousClock.now - start).seconds)
            result.tokens = TokenCounts(prompt: reply.promptTokens, cached: reply.cachedTokens, generated: reply.completionTokens)
            result.attemptedCalls = 1
            let call = try? JSONValue(parsing: reply.content)
            guard let name = call?["name"]?.stringValue, let arguments = call?["arguments"] else {
                result.mismatch = "not a call: \(reply.content.prefix(80))"
                return (result, reply.finishReason == "length" ? "stopped at the cap" : "not a name and arguments object")
            }
            result.calledFunctions = [name]
            result.score(firstCall: (name, arguments), against: functionCallCase.calls)
            guard let tool = tools.first(where: { $0.name == name }) else { return (result, "no tool named \(name)") }
            do {
                try tool.parameters.validate(arguments, rootName: "arguments")
                result.validCalls = 1
            } catch {
                return (result, error.description)
            }
        } catch let error as LlamaServer.ErrorReply where error.status == 400 {
            result.schemaError = "llama-server refused the request: \(error.body.prefix(300))"
        } catch {
            result.latency = Latency(total: (ContinuousClock.now - start).seconds)
            result.error = String(describing: error)
            result.score(firstCall: nil, against: functionCallCase.calls)
        }
        return (result, nil)
    }

    /// The `response_format` a client sends to force one call among `tools`: a JSON schema, any
    /// of one object per tool, `{"name": <the tool's name>, "arguments": <its parameters>}`,
    /// with the parameters as the case gives them.
    static func forcedCall(_ tools: [FunctionCallCase.ToolDefinition]) -> JSONValue {
        let alternatives: [JSONValue] = tools.map { tool in
            ["type": "object", "properties": ["name": ["const": .string(tool.name)], "arguments": tool.parameters],
             "required": ["name", "arguments"], "additionalProperties": false]
        }
        return ["type": "json_schema", "json_schema": ["name": "function_call", "schema": ["anyOf": .array(alternatives)]]]
    }

    // MARK: Report

    private static func line(_ result: FunctionCallResult) -> String {
        guard result.schemasConverted else { return "schema refused: \(result.schemaError?.prefix(100) ?? "")" }
        return String(format: "%.2f s, %d tokens, %d/%d calls valid, %@", result.latency.total, result.tokens.generated,
                      result.validCalls, result.attemptedCalls, result.rightCall ? "right" : "wrong (\(result.mismatch ?? ""))")
            + (result.error.map { " (failed: \($0.prefix(80)))" } ?? "")
    }

    private static func percent(_ value: Double?) -> Double { 100 * (value ?? .nan) }

    private static func report(ours: FunctionCallReport, theirs: FunctionCallReport, window: ContextWindow,
                               environment: BenchmarkEnvironment, samePromptLength: Int, peerInvalid: [String]) -> SectionReport {
        let latency = Sample(ours.results.filter(\.schemasConverted).map(\.latency.total))
        let reference = Sample(theirs.results.filter(\.schemasConverted).map(\.latency.total))
        func count(_ part: Int, _ whole: Int) -> String { "\(part) of \(whole)" }
        let rows = [
            BenchmarkRow(metric: "AST accuracy (first call right)", ours: percent(ours.astAccuracy), reference: percent(theirs.astAccuracy),
                         unit: "%", goal: 1, higherIsBetter: true,
                         note: "Lantern \(count(ours.rightCalls, ours.cases)), peer \(count(theirs.rightCalls, theirs.cases))"),
            BenchmarkRow(metric: "latency per case to the end of the call, median", ours: latency.median, reference: reference.median,
                         unit: "s", goal: 0.8, higherIsBetter: false, spread: "ours \(latency.spread); peer \(reference.spread)"),
            BenchmarkRow(metric: "Lantern schemas converted", ours: 100 * Double(ours.schemasConverted) / Double(max(ours.cases, 1)),
                         reference: nil, unit: "%", goal: 100, higherIsBetter: true,
                         note: "\(count(ours.schemasConverted, ours.cases)); peer \(count(theirs.schemasConverted, theirs.cases))"),
            BenchmarkRow(metric: "Lantern valid calls", ours: percent(ours.validCallRate), reference: nil, unit: "%", goal: 100,
                         higherIsBetter: true,
                         note: "\(count(ours.validCalls, ours.attemptedCalls)); peer \(count(theirs.validCalls, theirs.attemptedCalls))"),
            BenchmarkRow(metric: "exactly one call", ours: percent(ours.exactlyOneRate), reference: percent(theirs.exactlyOneRate),
                         unit: "%", goal: nil, higherIsBetter: true),
            BenchmarkRow(metric: "generated tokens per case, median (call round)", ours: ours.medianGeneratedTokens ?? .nan,
                         reference: theirs.medianGeneratedTokens ?? .nan, unit: "tokens", goal: nil, higherIsBetter: false),
            BenchmarkRow(metric: "prompt tokens per case, median", ours: median(ours.results.map(\.tokens.prompt)),
                         reference: median(theirs.results.map(\.tokens.prompt)), unit: "tokens", goal: nil, higherIsBetter: false,
                         note: "equal on both sides in \(count(samePromptLength, theirs.cases)) cases"),
        ]
        func both(_ measure: (FunctionCallReport) -> String) -> String { "| \(measure(ours)) | \(measure(theirs)) |" }
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.3f s", $0) } ?? "–" }
        let ratio = latency.median / reference.median
        let table = [
            "| | Lantern (`eval --calls builtin`) | llama-server, call forced by `response_format` |",
            "|---|---:|---:|",
            "| schemas converted " + both { count($0.schemasConverted, $0.cases) },
            "| valid calls " + both { "\(count($0.validCalls, $0.attemptedCalls)) (\(Percent($0.validCallRate)))" },
            "| AST accuracy (first call right) " + both { "\(count($0.rightCalls, $0.cases)) (\(Percent($0.astAccuracy)))" },
            "| right call, exactly one call " + both { count($0.rightSingleCalls, $0.cases) },
            "| exactly one call " + both { count($0.singleCallCases, $0.cases) },
            "| generated tokens per case, median " + both { $0.medianGeneratedTokens.map { String(format: "%.1f", $0) } ?? "–" },
            "| latency per case, median " + both { seconds($0.medianLatency) },
            "| latency ratio Lantern / peer | " + String(format: "%.2f", ratio) + " | 1 |",
            "| responses that failed " + both { "\($0.failedCases)" },
        ]
        let goals = [
            "AST accuracy ≥ the peer's: " + met(ours.rightCalls >= theirs.rightCalls && ours.cases == theirs.cases)
                + " (\(Percent(ours.astAccuracy)) vs \(Percent(theirs.astAccuracy)))",
            "median latency ≤ 0.8 × the peer's: " + met(ratio <= 0.8) + String(format: " (%.2f ×)", ratio),
            "100% schemas converted: " + met(ours.schemasConverted == ours.cases) + " (\(count(ours.schemasConverted, ours.cases)))",
            "100% valid calls: " + met(ours.validCalls == ours.attemptedCalls && ours.attemptedCalls > 0)
                + " (\(count(ours.validCalls, ours.attemptedCalls)))",
        ]
        let which = environment.quick ? "the first \(ours.cases) (--quick)" : "all \(ours.cases)"
        var notes: [String] = []
        notes.append([
            "\(which) cases of Sources/Evaluations/Samples/function-calls.jsonl (our own; issue 30's 150 outside cases are not in ",
            "the repository), each once per side, greedy (Lantern's default; the peer `temperature: 0`), cap \(maximumResponseTokens) ",
            "tokens, context \(window.tokens), \(environment.threads) threads, the same model file. Lantern: `FunctionCallEvaluation`, ",
            "the run `eval --calls` makes (`.required`, one tool round, at most one call per round). Peer: /v1/chat/completions ",
            "with `response_format` `{\"type\": \"json_schema\"}` whose schema is anyOf one `{\"name\": const, \"arguments\": ",
            "<the tool's parameters as the case writes them>}` per tool; no `tools` in the request.",
        ].joined())
        notes.append([
            "Same prompt: the peer's messages are a system turn holding the text Lantern's session writes for the tools ",
            "(`LanguageModelSession.systemPrompt`: the tool definitions in the `<tools>` layout) and the question as the user ",
            "turn; the model's own ChatML template (llama-server `--jinja`) renders them as Lantern does, which the prompt ",
            "token counts confirm case by case (row above). Sending the cases' tools as `tools` instead would let llama-server ",
            "write its own tool text (this model's template has none) and compare two prompts, not two engines.",
        ].joined())
        notes.append([
            "Same work: both sides stop at the call. Lantern's tokens and latency are its call round's — from the prompt to the ",
            "end of the first generation round (the one that writes the call), read from the engine's summary of that round; ",
            "the round after it, in which the session gives the model the canned tool result and it answers, is run but not ",
            "counted. `eval --calls` reports the same measure. The peer's latency is the wall clock of its one HTTP request ",
            "(the harness waits in a blocking socket read). Lantern's call round also writes the `<tool_call>` tags around ",
            "the JSON, which the peer's bare JSON does not.",
        ].joined())
        notes.append([
            "Scoring: both sides' first call through `FunctionCallScorer` (name, required arguments, acceptable values, numbers ",
            "by value); valid = parsed and validating against the tool's schema as Lantern reads it. A reply the peer cut at ",
            "the cap or that is not a `{\"name\", \"arguments\"}` object counts as an attempted, invalid call; a 400 from ",
            "llama-server counts as a schema it did not convert.",
            peerInvalid.isEmpty ? "" : " The peer's invalid calls: " + peerInvalid.joined(separator: "; ") + ".",
        ].joined())
        notes.append(table.joined(separator: "\n"))
        notes.append("Goals (issue 30): " + goals.joined(separator: "; ") + ".")
        let refused = theirs.results.compactMap { result in result.schemaError.map { "\(result.caseID): \($0)" } }
        if !refused.isEmpty { notes.append("Schemas the peer refused: " + refused.joined(separator: "; ")) }
        if theirs.cases < ours.cases {
            notes.append("\(ours.cases - theirs.cases) cases were not asked of the peer: Lantern refused one of their schemas, so there was no shared prompt to send.")
        }
        return SectionReport(
            name: "calls", title: "Function calls: our cases, Lantern vs llama-server with the call forced by response_format",
            reference: "llama-server --jinja -t \(environment.threads) -c \(window.tokens) on 127.0.0.1 (llama.cpp-tools), "
                + "/v1/chat/completions with a JSON-schema `response_format` forcing one call; the same FunctionCallScorer",
            rows: rows, notes: notes)
    }

    private static func met(_ condition: Bool) -> String { condition ? "met" : "**missed**" }

    private static func median(_ values: [Int]) -> Double { Sample(values.map(Double.init)).median }
}
