import Evaluations
import Foundation
import LocalModel
import SearchIndex
import SearchTool
import TokenBudget

/// Section "e2e" (issue 9 §6, issue 26 §1): the sample evaluation questions answered by
/// Lantern in-process and by llama-server, with the same model, threads, context, search and
/// fetch tools, index, round limit and per-round token cap.
///
/// The headline peer does the same work (issue 26): a `LanguageModelSession` over
/// `OpenAICompatibleModel` (the public remote model), so the server reads Lantern's own ChatML prompt with its tool
/// definitions, each round is constrained by the GBNF Lantern's session uses for that round,
/// and the session's call parser, tool instances and tool-output layout run between the
/// rounds, which go to /completion with `cache_prompt`; it sends `preserved_tokens` for the call
/// markup a vocabulary spells as one token (Qwen's `<tool_call>`), as llama-server requires. Two
/// more peers show what a user of `llama-server --jinja` gets by default through the chat
/// endpoint with OpenAI tools: the natural peer (the model's own template, the server's parser
/// reading the calls), and a tool-capable ChatML template. Questions are interleaved (each
/// question on every side before the next), so that whatever else the machine does affects
/// all sides alike.
enum EndToEndBenchmark {
    /// The cap on each generation round, on both sides: without it the peer may generate until
    /// the context is full when its template hides the tools.
    static let maximumResponseTokens = 256
    /// `LanguageModelSession`'s default round limit, mirrored in the peer's tool loop.
    static let maximumToolRounds = 4
    /// The most one side may take for one question (all rounds) before it is stopped and the
    /// question counted as failed: an idle machine needs a few seconds, a loaded one a minute.
    static let questionTimeout = 240.0
    /// Questions in a `--quick` run (the first ones of trails-samples.jsonl); a full run asks all.
    static let quickQuestionCount = 2
    static let chatMLTemplate = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("templates/chatml-tools.jinja")

    /// One question answered by one side.
    struct Outcome: Sendable {
        var seconds = 0.0
        var promptTokens = 0
        /// Of `promptTokens`, those found in the KV cache (Lantern) or the server's prompt cache.
        var cachedTokens = 0
        var completionTokens = 0
        /// Calls the model attempted: parsed ones plus text that tried to be a call and was not read as one.
        var calls = 0
        /// Parsed calls of a known tool whose arguments validate against its `parameters`.
        var validCalls = 0
        var answered = false
        /// Generation rounds: one, plus one per round of tool calls.
        var rounds = 0
        /// Rounds that stopped at the token cap.
        var truncatedRounds = 0
        /// Where `seconds` went, summed over the rounds (`Response.Usage`; the same-work peer's
        /// from the server's own `timings`): prompt decoding, generation with its sampling, the
        /// tools; the rest is the session's own work (rendering, grammars, parsing) and the wire.
        var prefillSeconds = 0.0
        var decodeSeconds = 0.0
        var toolSeconds = 0.0
        var problem: String?

        /// One line of progress on stderr.
        var line: String {
            String(format: "%.1f s, %d/%d calls valid, %d prompt (%d cached) + %d generated tokens", seconds, validCalls, calls,
                   promptTokens, cachedTokens, completionTokens)
                + (problem.map { " (failed: \($0.prefix(80)))" } ?? "")
        }
    }

    /// The sample index and the wiring `ask` uses over it.
    struct Fixture: Sendable {
        let setup: SearchSetup
        let questions: [EvaluationSample]
        let folder: URL

        init(environment: BenchmarkEnvironment) async throws {
            folder = environment.workDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let index = try SearchableIndex(url: folder.appendingPathComponent("trails.sqlite"))
            try await index.indexSearchableItems(try CorpusReader().items(contentsOf: SampleData.trailsCorpus))
            setup = try await SearchSetup(index: index, guide: .focused, format: .structured)
            let all = try SampleReader().samples(contentsOf: SampleData.trailsSamples)
            questions = environment.chosen(all, quick: Array(all.prefix(EndToEndBenchmark.quickQuestionCount)))
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let fixture = try await Fixture(environment: environment)
        defer { fixture.remove() }
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
        let window = model.defaultContextWindow
        // /completion reads the prompt the session renders: the server's own template is not used
        let sameWorkServer = try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: window.tokens,
                                                   logDirectory: fixture.folder)
        defer { sameWorkServer.stop() }
        let sameWork = try await sameWorkServer.model(vocabulary: model, timeout: questionTimeout)
        let defaultServer = try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: window.tokens,
                                                  logDirectory: fixture.folder)
        defer { defaultServer.stop() }
        let chatMLServer = try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: window.tokens,
                                                 chatTemplateFile: chatMLTemplate, logDirectory: fixture.folder)
        defer { chatMLServer.stop() }
        let peers = [(label: naturalLabel, server: defaultServer), (label: "ChatML tools template", server: chatMLServer)]

        var ours: [Outcome] = []
        var same: [Outcome] = []
        var theirs: [[Outcome]] = peers.map { _ in [] }
        for (number, sample) in fixture.questions.enumerated() {
            let prefix = "bench: e2e question \(number + 1)/\(fixture.questions.count)"
            ours.append(await sessionAnswer(sample.prompt, setup: fixture.setup, model: model, window: window))
            FileHandle.standardError.write(Data("\(prefix), Lantern: \(ours[number].line)\n".utf8))
            same.append(await sessionAnswer(sample.prompt, setup: fixture.setup, model: sameWork, window: window))
            FileHandle.standardError.write(Data("\(prefix), llama-server doing the same work: \(same[number].line)\n".utf8))
            for (side, peer) in peers.enumerated() {
                theirs[side].append(await peerAnswer(sample.prompt, setup: fixture.setup, model: model, window: window, server: peer.server))
                FileHandle.standardError.write(Data("\(prefix), llama-server with the \(peer.label): \(theirs[side][number].line)\n".utf8))
            }
        }

        // the same-work peer first: its latency row is the headline
        let sides = [(label: sameWorkLabel, outcomes: same)] + peers.indices.map { (label: peers[$0].label, outcomes: theirs[$0]) }
        let latency = Sample(ours.map(\.seconds))
        let perQuestionRatio = Sample(zip(ours, same).map { $0.seconds / $1.seconds }).median
        var rows: [BenchmarkRow] = [promptTokensRow(ours.map(\.promptTokens))]
        for side in sides {
            let reference = Sample(side.outcomes.map(\.seconds))
            rows.append(BenchmarkRow(metric: "latency per question, median (vs \(side.label))", ours: latency.median,
                                     reference: reference.median, unit: "s", goal: latencyGoal, higherIsBetter: false,
                                     spread: "ours \(latency.spread); peer \(reference.spread)",
                                     note: side.label == sameWorkLabel ? String(format: "median of the per-question ratios %.2f", perQuestionRatio) : nil))
        }
        // where the same-work peer's time and ours go: the question's time split by what spent it
        let parts: [(String, (Outcome) -> Double)] = [
            ("prompt decoding", \.prefillSeconds), ("generation (sampling included)", \.decodeSeconds), ("tools", \.toolSeconds),
            ("the rest (session, grammars, parsing; the peer's wire)", { $0.seconds - $0.prefillSeconds - $0.decodeSeconds - $0.toolSeconds }),
        ]
        for (name, part) in parts {
            let (a, b) = (Sample(ours.map { part($0) * 1_000 }), Sample(same.map { part($0) * 1_000 }))
            rows.append(BenchmarkRow(metric: "of the latency: \(name), median (vs \(sameWorkLabel))", ours: a.median, reference: b.median,
                                     unit: "ms", goal: nil, higherIsBetter: false, spread: "ours \(a.spread); peer \(b.spread)"))
        }
        for side in sides {
            rows.append(tokenRow("prompt tokens per question, median, all rounds (vs \(side.label))", ours.map(\.promptTokens), side.outcomes.map(\.promptTokens)))
            rows.append(tokenRow("of which cached, median (vs \(side.label))", ours.map(\.cachedTokens), side.outcomes.map(\.cachedTokens)))
            rows.append(tokenRow("completion tokens per question, median (vs \(side.label))", ours.map(\.completionTokens), side.outcomes.map(\.completionTokens)))
        }
        rows.append(BenchmarkRow(metric: "Lantern tool calls valid", ours: share(ours), reference: nil, unit: "%", goal: 100,
                                 higherIsBetter: true, note: "\(ours.map(\.validCalls).reduce(0, +)) of \(ours.map(\.calls).reduce(0, +)) calls"))
        rows.append(BenchmarkRow(metric: "llama-server doing the same work: its tool calls valid (its own figure)", ours: share(same),
                                 reference: nil, unit: "%", goal: 100, higherIsBetter: true,
                                 note: "\(same.map(\.validCalls).reduce(0, +)) of \(same.map(\.calls).reduce(0, +)) calls"))
        for side in sides {
            rows.append(BenchmarkRow(metric: "tool calls valid (vs \(side.label))", ours: share(ours), reference: share(side.outcomes),
                                     unit: "%", goal: nil, higherIsBetter: true,
                                     note: "peer: \(side.outcomes.map(\.validCalls).reduce(0, +)) of \(side.outcomes.map(\.calls).reduce(0, +)) calls"))
        }

        let sameRounds = zip(ours, same).filter { $0.rounds == $1.rounds }
        let samePrompt = sameRounds.filter { $0.promptTokens == $1.promptTokens }.count
        var notes = [
            "\(fixture.questions.count) questions of trails-samples.jsonl, each answered once per side, greedy; "
                + "per-round cap \(maximumResponseTokens) tokens, at most \(maximumToolRounds) tool rounds, context \(window.tokens), "
                + "first round must call a tool; "
                + "a side that takes more than \(Int(questionTimeout)) s for a question is stopped and the question counted as failed. "
                + "The first question is cold on every side (nothing cached yet). Valid = parsed, a known tool, arguments "
                + "validate against the tool's `parameters`; text that tried to be a call (`<tool_call>` in the answer) counts as a call that did not parse.",
            "The same work (issue 26 §1): a `LanguageModelSession` whose model is llama-server (`OpenAICompatibleModel`, given the "
                + "model file's vocabulary). The server gets the prompt Lantern renders (its ChatML, its system turn with the tool definitions, "
                + "the tool outputs in `<tool_response>` user turns) as /completion's `prompt`, as the tokens Lantern decodes, streamed; each round the GBNF the session compiled for it in `grammar` (round 1 `.required`: "
                + "calls only; later rounds `.allowed`: the quote-or-call grammar over the sources shown, or the call grammar lazy on "
                + "`<tool_call>` via `grammar_lazy` and `grammar_triggers`), the session's stop strings, `n_predict` \(maximumResponseTokens), "
                + "`temperature: 0`, `cache_prompt: true`, and in `preserved_tokens` the call markup and triggers this vocabulary spells "
                + "as one token (`<tool_call>` and `</tool_call>` for Qwen2.5, which the server otherwise refuses as a "
                + "trigger and leaves out of the text). The session parses each reply with Lantern's call parser, validates and runs "
                + "the call on the same tool instances and index, and sends the next round; the repeated-span and repeated-text stops watch "
                + "the streamed text and close the request when one fires. Not sent, because llama-server has no such "
                + "request field: Lantern's forced prefix (the server generates a required call's opening `<tool_call>\\n{\"name\": \"` "
                + "token by token under the grammar; Lantern decodes it with the prompt). /completion, not "
                + "the chat endpoint with a ChatML `--chat-template-file`: this server applies a chat request's `grammar` from the first "
                + "token and ignores its `grammar_lazy` (checked by hand on 2026-12-03), so the lazy rounds could not be asked of it.",
            "Same prompt, checked: of \(fixture.questions.count) questions, \(sameRounds.count) took as many rounds on both sides, and of "
                + "those \(samePrompt) had exactly as many prompt tokens (table below).",
            perQuestionTable(fixture.questions, ours: ours, peer: same),
            "Lantern: " + summary(ours),
            "llama-server doing the same work: " + summary(same),
            "The other two peers: /v1/chat/completions with the search and fetch tools as OpenAI tools, `tool_choice: \"required\"` "
                + "in the first round, then \"auto\", and the harness running each call the server's own parser read on the same tool "
                + "instances. The natural peer, with the model's own template, is what a user of `llama-server --jinja -m MODEL` gets with no "
                + "template of their own; the other gives the server a ChatML template with tool turns.",
            "The harness sends the peers' requests over a plain blocking socket (`HTTPClient`, the remote model's) and is idle while the server works; "
                + "before 2026-11-29 it used URLSession, whose waiting kept about 1.5 of the 2 cores busy and slowed the server about 2.5×.",
        ]
        if let missed = missedNote(ours: ours, peer: same, parts: parts) { notes.insert(missed, at: 0) }
        notes += peers.enumerated().map { side, peer in "llama-server, \(peer.label): " + summary(theirs[side]) }
        for (side, peer) in peers.enumerated() where theirs[side].allSatisfy({ $0.calls == 0 }) {
            notes.append("llama-server with the \(peer.label) made no tool call at all, so its latency is that of answering without searching"
                + (peer.server === chatMLServer
                   ? ": with this template llama-server's generated parser lets text come before `<tool_call>` even under "
                     + "`tool_choice: \"required\"` (its -v log shows `Repetition(Tag(content, Until(<tool_call>)), 0, 1)` ahead of the "
                     + "calls), and the model writes prose until the token cap; Lantern's grammar starts at the call." : "."))
        }
        return SectionReport(
            name: "e2e", title: "End to end: sample questions, Lantern in-process vs llama-server",
            reference: "llama-server -t \(environment.threads) -c \(window.tokens) on 127.0.0.1 (llama.cpp-tools): doing the same work, "
                + "/completion with Lantern's rendered prompt and per-round GBNF; and --jinja /v1/chat/completions with the same search "
                + "and fetch tools as OpenAI tools (the natural peer: the model's own template and the server's parser; a ChatML tools template), executed by the harness against the same index",
            rows: rows, notes: notes)
    }

    /// The most of a peer's latency Lantern's may take (issue 26 §1).
    static let latencyGoal = 0.8

    /// Where the headline's time goes when it misses `latencyGoal` of the same-work peer: each part of a
    /// question's latency on both sides, and the prompt tokens both decode. Nil when it is met.
    static func missedNote(ours: [Outcome], peer: [Outcome], parts: [(String, (Outcome) -> Double)]) -> String? {
        let (latency, peerLatency) = (Sample(ours.map(\.seconds)).median, Sample(peer.map(\.seconds)).median)
        guard latency / peerLatency > latencyGoal else { return nil }
        let split = parts.map { name, part in
            String(format: "%@ %.0f ms against %.0f", name, Sample(ours.map { part($0) * 1_000 }).median, Sample(peer.map { part($0) * 1_000 }).median)
        }.joined(separator: ", ")
        let median = { (outcomes: [Outcome], value: (Outcome) -> Int) in Int(Sample(outcomes.map { Double(value($0)) }).median) }
        return String(format: "Latency against the same work: missed, %.2f (goal ≤ %.2f). Where the time goes, median per question, ours against the peer's: ", latency / peerLatency, latencyGoal)
            + split + ". "
            + "Both sides decode the same prompt, \(median(ours, \.promptTokens)) tokens of which \(median(ours, \.cachedTokens)) cached "
            + "(the peer: \(median(peer, \.promptTokens)) and \(median(peer, \.cachedTokens))), and generate about as many "
            + "(\(median(ours, \.completionTokens)) and \(median(peer, \.completionTokens))), through the same llama.cpp at about the same speed "
            + "(the engine, depth and concurrency sections). Prompt decoding is most of the latency on both sides, so \(latencyGoal) cannot come "
            + "from the engine, nor from a shorter prompt (shorter guidance or tool outputs), which the same-work peer would be sent too. "
            + "It would take work that only Lantern can skip: today that is its forced call opening, a few tokens a round; the prompt "
            + "that is not cached (the tool outputs and the new turn, \(median(ours, \.promptTokens) - median(ours, \.cachedTokens)) tokens "
            + "a question) both sides must decode."
    }

    /// The same-work peer's name in rows.
    static let sameWorkLabel = "the same work on llama-server"
    /// The natural peer's name in rows: llama-server `--jinja` with the model's own template,
    /// its parser reading the calls.
    static let naturalLabel = "model's own template and parser (the natural peer)"

    // MARK: The sides

    /// A session as `ask` answers: the shared wiring, a fresh session and tool per question, over
    /// the in-process model (Lantern) or over llama-server (`OpenAICompatibleModel`, the same work).
    static func sessionAnswer(_ question: String, setup: SearchSetup, model: any LanguageModel, window: ContextWindow) async -> Outcome {
        let (session, tool) = setup.makeSession(model: model, window: window, thinking: false)
        defer { tool.finish() }
        let schemas = [tool.name: tool.parameters, tool.fetchTool.name: tool.fetchTool.parameters]
        let options = GenerationOptions(maximumResponseTokens: maximumResponseTokens, toolCallingMode: .required)
        var outcome = Outcome()
        let start = ContinuousClock.now
        let entries: [Transcript.Entry]
        do {
            let response = try await withDeadline(seconds: questionTimeout, "Lantern's answer") {
                try await session.respond(to: question, options: options)
            }
            outcome.seconds = (ContinuousClock.now - start).seconds
            outcome.promptTokens = response.usage.promptTokens
            outcome.cachedTokens = response.usage.cachedTokens
            outcome.completionTokens = response.usage.generatedTokens
            outcome.rounds = response.usage.rounds
            outcome.prefillSeconds = response.usage.prefillDuration.seconds
            outcome.decodeSeconds = response.usage.decodeDuration.seconds
            outcome.toolSeconds = response.usage.toolDuration.seconds
            outcome.answered = !response.content.allSatisfy(\.isWhitespace)
            entries = Array(response.transcriptEntries)
        } catch {
            outcome.seconds = (ContinuousClock.now - start).seconds
            outcome.problem = String(describing: error)
            entries = Array(session.transcript)
        }
        for entry in entries {
            switch entry {
            case .toolCalls(let batch):
                for call in batch.calls {
                    outcome.calls += 1
                    if let schema = schemas[call.toolName], (try? schema.validate(call.arguments)) != nil { outcome.validCalls += 1 }
                }
            case .toolOutput(let output) where output.toolName.isEmpty:
                outcome.calls += 1   // text the session could not read as a call
            default:
                break
            }
        }
        return outcome
    }

    /// A tool as an OpenAI function: its definition, and a way to run it on raw arguments.
    struct Function: Sendable {
        let name: String
        let parameters: GenerationSchema
        let definition: JSONValue
        let run: @Sendable (JSONValue) async throws -> String

        init<T: Tool>(_ tool: T) {
            name = tool.name
            parameters = tool.parameters
            definition = ["type": "function", "function": ["name": .string(tool.name), "description": .string(tool.description),
                                                           "parameters": tool.parameters.jsonSchema]]
            run = { try await tool.call(arguments: T.Arguments($0)).promptRepresentation }
        }
    }

    /// The peer: the same instructions and tools through the chat endpoint, the harness running
    /// each call with the same tool instance a Lantern session would, until the model answers.
    static func peerAnswer(_ question: String, setup: SearchSetup, model: LocalModel, window: ContextWindow, server: LlamaServer) async -> Outcome {
        // the session is not used: makeSession is the one place the tools are wired
        let (_, tool) = setup.makeSession(model: model, window: window, thinking: false)
        defer { tool.finish() }
        let functions = [Function(tool), Function(tool.fetchTool)]
        var messages: [JSONValue] = [["role": "system", "content": .string(setup.instructions)], ["role": "user", "content": .string(question)]]
        var outcome = Outcome()
        let start = ContinuousClock.now
        do {
            for round in 0...maximumToolRounds {
                let remaining = questionTimeout - (ContinuousClock.now - start).seconds
                guard remaining > 0 else {
                    throw BenchmarkFailure("llama-server's answer did not finish within \(Int(questionTimeout)) s")
                }
                let reply = try await server.chat(messages: messages, tools: functions.map(\.definition), maxTokens: maximumResponseTokens,
                                                  toolChoice: round == 0 ? "required" : "auto", timeout: remaining)
                outcome.promptTokens += reply.promptTokens
                outcome.cachedTokens += reply.cachedTokens
                outcome.completionTokens += reply.completionTokens
                outcome.rounds += 1
                if reply.finishReason == "length" { outcome.truncatedRounds += 1 }
                // a call the server did not recognise stays in the text
                outcome.calls += reply.content.components(separatedBy: "<tool_call>").count - 1
                if reply.toolCalls.isEmpty {
                    outcome.answered = !reply.content.allSatisfy(\.isWhitespace)
                    break
                }
                if round == maximumToolRounds {
                    outcome.problem = "the model called tools for \(maximumToolRounds) rounds without answering"
                    break
                }
                messages.append(reply.assistantMessage)
                for call in reply.toolCalls {
                    outcome.calls += 1
                    messages.append(["role": "tool", "tool_call_id": .string(call.id),
                                     "content": .string(await run(call, functions, outcome: &outcome))])
                }
            }
        } catch {
            outcome.problem = String(describing: error)
        }
        outcome.seconds = (ContinuousClock.now - start).seconds
        return outcome
    }

    /// Runs one of the peer's calls; what goes back to the model is the tool's output or, as a
    /// Lantern session reports it, "Error: …".
    private static func run(_ call: (id: String, name: String, arguments: String), _ functions: [Function], outcome: inout Outcome) async -> String {
        guard let function = functions.first(where: { $0.name == call.name }) else {
            return "Error: there is no tool named \(call.name); the tools are \(functions.map(\.name).joined(separator: ", "))."
        }
        let arguments: JSONValue
        do {
            arguments = try JSONValue(parsing: call.arguments)
        } catch {
            return "Error: the arguments are not JSON (\(error))."
        }
        if (try? function.parameters.validate(arguments)) != nil { outcome.validCalls += 1 }
        do {
            return try await function.run(arguments)
        } catch {
            return "Error: \(error)"
        }
    }

    // MARK: Report

    private static func share(_ outcomes: [Outcome]) -> Double {
        let calls = outcomes.map(\.calls).reduce(0, +)
        return calls == 0 ? .nan : 100 * Double(outcomes.map(\.validCalls).reduce(0, +)) / Double(calls)
    }

    /// Issue 48's goal for the prompt tokens of one question over all its rounds (cached ones
    /// included), on the shipped trail samples: half of the 5,070 it measured.
    static let promptTokensGoal: Double = 2_500
    /// Lantern's median at 7ea8f5c (RESULTS.md of 2026-12-04, SmolLM2), before issue 48's cuts.
    static let promptTokensBefore = 4_507

    /// The headline token row: what a question costs in prompt tokens, all rounds, against the goal.
    private static func promptTokensRow(_ tokens: [Int]) -> BenchmarkRow {
        let sample = Sample(tokens.map(Double.init))
        let mean = tokens.isEmpty ? 0 : Double(tokens.reduce(0, +)) / Double(tokens.count)
        return BenchmarkRow(metric: "prompt tokens per question, all rounds, median", ours: sample.median, reference: nil, unit: "tokens",
                            goal: promptTokensGoal, higherIsBetter: false, spread: sample.spread,
                            note: String(format: "mean %.0f; median %d at 7ea8f5c", mean, promptTokensBefore))
    }

    private static func tokenRow(_ metric: String, _ ours: [Int], _ theirs: [Int]) -> BenchmarkRow {
        let (a, b) = (Sample(ours.map(Double.init)), Sample(theirs.map(Double.init)))
        return BenchmarkRow(metric: metric, ours: a.median, reference: b.median, unit: "tokens", goal: nil, higherIsBetter: false,
                            spread: "ours \(a.spread); peer \(b.spread)")
    }

    /// Question by question, Lantern beside the same-work peer.
    private static func perQuestionTable(_ questions: [EvaluationSample], ours: [Outcome], peer: [Outcome]) -> String {
        func tokens(_ outcome: Outcome) -> String { "\(outcome.promptTokens) / \(outcome.cachedTokens) / \(outcome.completionTokens)" }
        func calls(_ outcome: Outcome) -> String { "\(outcome.validCalls) of \(outcome.calls)" }
        var lines = [
            "| question | Lantern s | same work s | ratio | Lantern tokens prompt / cached / generated | same work tokens | rounds | valid calls |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for (index, question) in questions.enumerated() where index < ours.count && index < peer.count {
            let (lantern, server) = (ours[index], peer[index])
            let text = question.prompt.count > 48 ? String(question.prompt.prefix(47)) + "…" : question.prompt
            lines.append("| \(question.id): \(text.replacingOccurrences(of: "|", with: "/")) | "
                + String(format: "%.2f | %.2f | %.2f", lantern.seconds, server.seconds, lantern.seconds / server.seconds)
                + " | \(tokens(lantern)) | \(tokens(server)) | \(lantern.rounds) / \(server.rounds) | \(calls(lantern)) / \(calls(server)) |")
        }
        return lines.joined(separator: "\n")
    }

    private static func summary(_ outcomes: [Outcome]) -> String {
        let answered = outcomes.filter(\.answered).count
        let withCalls = outcomes.filter { $0.calls > 0 }.count
        let truncated = outcomes.map(\.truncatedRounds).reduce(0, +)
        var text = "\(answered) of \(outcomes.count) questions answered, \(withCalls) with at least one tool call"
        if truncated > 0 { text += ", \(truncated) rounds stopped at the token cap" }
        let problems = outcomes.compactMap(\.problem)
        if !problems.isEmpty { text += "; failures: " + problems.map { String($0.prefix(160)) }.joined(separator: " | ") }
        return text + "."
    }
}
