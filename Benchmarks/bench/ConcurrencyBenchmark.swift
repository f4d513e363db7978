import Foundation
import LocalModel
import TokenBudget

/// Section "concurrency" (issue 26 §5): N sessions asking at once on one loaded model, the
/// aggregate generated tokens per second and each session's latency, against llama-server with
/// `--parallel N` (continuous batching: its slots decode in one batch) at the same counts.
///
/// Each of Lantern's sessions is its own `InferenceContext` on the one `LocalModel`, as each
/// concurrent `LanguageModelSession` gets one from the model, all sequences of one llama.cpp
/// context (`parallelSessions`, as the peer's slots), so their decodes batch; they are driven directly
/// so every session generates exactly `generatedTokens` tokens (end of generation ignored, as
/// the peer's `ignore_eos`). Both sides get the same prompt tokens (a short different question
/// per session in the model's chat layout, sent to the peer as token ids), greedy, the same
/// threads; one untimed round per side first, so both start with the prompts cached.
enum ConcurrencyBenchmark {
    /// Tokens each session's context holds: its prompt and its answer, with room to spare.
    static let sessionContext = 512

    static let questions = [
        "Name three birds that live near lakes.",
        "What should I pack for a day hike in autumn?",
        "Explain in one paragraph why the sky is blue.",
        "Write a short poem about a mountain trail.",
        "How do I read a topographic map?",
        "List some tips for hiking in the rain.",
        "What is the difference between a hill and a mountain?",
        "Describe a sunrise seen from a summit.",
    ]

    /// One round's figures: every session's latency, and the wall time of all of them.
    struct Round {
        var latencies: [Double]
        var wall: Double
        var texts: [String]
    }

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let counts = environment.quick ? [1, 2, 4] : [1, 2, 4, 8]
        let generatedTokens = environment.quick ? 64 : 128
        let repetitions = environment.quick ? 2 : 3
        var configuration = environment.modelConfiguration
        configuration.parallelSessions = counts.max() ?? 1
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: configuration)
        let prompts = try questions.map { question in
            try model.tokenizer.tokenize(model.chatTemplate.render([ChatMessage(.user, question)], thinking: false), addSpecial: true, parseSpecial: true)
        }
        guard let longest = prompts.map(\.count).max(), longest + generatedTokens < sessionContext else {
            throw BenchmarkFailure("a prompt of \(prompts.map(\.count).max() ?? 0) tokens and \(generatedTokens) generated do not fit \(sessionContext)")
        }
        let contexts = try (0..<(counts.max() ?? 1)).map { _ in try model.makeContext(window: ContextWindow(tokens: sessionContext)) }
        let folder = environment.workDirectory.appendingPathComponent("concurrency-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var rows: [BenchmarkRow] = []
        var agreement: [String] = []
        for count in counts {
            // llama-server divides -c among its slots: each slot gets the context one of ours has
            let server = try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: count * sessionContext,
                                               parallel: count, logDirectory: folder)
            defer { server.stop() }
            let sessions = Array(zip(contexts.prefix(count), prompts))
            func lantern() async throws -> Round {
                try await round(sessions.map { context, prompt in { try await generate(context, prompt: prompt, tokens: generatedTokens) } })
            }
            func peer() async throws -> Round {
                try await round(sessions.map { _, prompt in { try await server.completion(prompt: prompt, tokens: generatedTokens) } })
            }
            _ = try await lantern()
            _ = try await peer()
            var ours: [Round] = [], theirs: [Round] = []
            for repetition in 0..<repetitions {
                if repetition.isMultiple(of: 2) {
                    ours.append(try await lantern())
                    theirs.append(try await peer())
                } else {
                    theirs.append(try await peer())
                    ours.append(try await lantern())
                }
            }
            let total = Double(count * generatedTokens)
            let ourRates = Sample(ours.map { total / $0.wall }), theirRates = Sample(theirs.map { total / $0.wall })
            let ourLatencies = Sample(ours.flatMap(\.latencies)), theirLatencies = Sample(theirs.flatMap(\.latencies))
            let goal: Double? = count >= 4 ? 1.0 : nil
            var rateRow = BenchmarkRow(
                metric: "aggregate generated tokens/s, \(count) session\(count == 1 ? "" : "s") at once", ours: ourRates.median,
                reference: theirRates.median, unit: "tokens/s", goal: goal, higherIsBetter: true,
                spread: "ours \(ourRates.spread); peer \(theirRates.spread)")
            if rateRow.goalMet == false {
                rateRow.note = "missed: both decode the \(count) sessions in one llama_decode per step; Lantern's step adds copying and sampling each session's logits on the engine thread (at 4 sessions: 25.1 ms in llama_decode of 25.9 ms a step, 2026-12-04)"
            }
            rows.append(rateRow)
            rows.append(BenchmarkRow(
                metric: "per-session latency, median (max), \(count) session\(count == 1 ? "" : "s")", ours: ourLatencies.median * 1_000,
                reference: theirLatencies.median * 1_000, unit: "ms", goal: nil, higherIsBetter: false,
                spread: String(format: "max ours %.0f, peer %.0f", ourLatencies.percentile(100) * 1_000, theirLatencies.percentile(100) * 1_000)))
            let same = zip(ours.last?.texts ?? [], theirs.last?.texts ?? []).filter { $0 == $1 }.count
            agreement.append("\(same) of \(count) at N = \(count)")
        }
        let ceiling = try batchedDecodeSpeeds(environment, counts: counts, promptTokens: prompts.map(\.count).min() ?? 1, generatedTokens: generatedTokens)
        return SectionReport(
            name: "concurrency",
            title: "Concurrent sessions: aggregate generation and per-session latency with 1–\(counts.max() ?? 1) sessions on one model vs llama-server --parallel",
            reference: "llama-server --parallel N -c N×\(sessionContext) (continuous batching), N /completion requests at once with the same prompt tokens, n_predict \(generatedTokens), ignore_eos, temperature 0, \(environment.threads) threads; \(repetitions) rounds per side, interleaved; medians",
            rows: rows,
            notes: [
                "Each session generates exactly \(generatedTokens) tokens; aggregate = N × \(generatedTokens) / the wall time from the first start to the last finish (prefill of the cached prompt included). Latency is each session's own start to finish.",
                "Lantern: one InferenceContext of \(sessionContext) tokens per session on one LocalModel with parallelSessions \(counts.max() ?? 1) (one llama.cpp context, a sequence per session, their decodes in one batch), all started at once from a task group. Peer: one request per thread (HTTPClient blocks in recv on a thread of its own per request).",
                "Greedy texts identical to the peer's in the last round: \(agreement.joined(separator: ", ")).",
                "What batching can give here, without a server: llama-batched-bench's generation speed (S_TG) with N sequences decoded in one batch (one run): \(zip(counts, ceiling).map { String(format: "%.0f tokens/s at N = %d", $1, $0) }.joined(separator: ", ")).",
            ])
    }

    /// llama.cpp's own batched generation speed for each count of parallel sequences
    /// (`llama-batched-bench`, S_TG): the ceiling of decoding the sessions in one batch.
    private static func batchedDecodeSpeeds(_ environment: BenchmarkEnvironment, counts: [Int], promptTokens: Int, generatedTokens: Int) throws -> [Double] {
        let output = try BenchmarkEnvironment.run("/usr/bin/llama-batched-bench", [
            "-m", environment.modelURL.path, "-c", String((counts.max() ?? 1) * sessionContext), "-npp", String(promptTokens),
            "-ntg", String(generatedTokens), "-npl", counts.map(String.init).joined(separator: ","), "-t", String(environment.threads),
            "--output-format", "jsonl",
        ])
        let speeds = output.split(separator: "\n").compactMap { line -> (Int, Double)? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let parallel = object["pl"] as? Int, let speed = object["speed_tg"] as? Double else { return nil }
            return (parallel, speed)
        }
        return try counts.map { count in
            guard let speed = speeds.first(where: { $0.0 == count })?.1 else { throw BenchmarkFailure("llama-batched-bench printed no result for \(count) sequences") }
            return speed
        }
    }

    /// Starts every session at once and waits for all of them.
    private static func round(_ sessions: [@Sendable () async throws -> String]) async throws -> Round {
        let start = ContinuousClock.now
        let results = try await withThrowingTaskGroup(of: (Int, Double, String).self) { group in
            for (index, session) in sessions.enumerated() {
                group.addTask {
                    let text = try await session()
                    return (index, (ContinuousClock.now - start).seconds, text)
                }
            }
            var results: [(Int, Double, String)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        return Round(latencies: results.map(\.1), wall: (ContinuousClock.now - start).seconds, texts: results.map(\.2))
    }

    /// Exactly `tokens` tokens after `prompt`, greedy; the text.
    private static func generate(_ context: InferenceContext, prompt: [Token], tokens: Int) async throws -> String {
        var text = ""
        // control tokens as no text, as the peer's content has them, so the texts compare
        let parameters = GenerationParameters(maximumTokens: tokens, renderSpecialTokens: false, stopsAtEndOfGeneration: false)
        for try await event in context.generate(tokens: prompt, parameters: parameters) {
            switch event {
            case .text(let piece): text += piece
            case .finished(let summary):
                guard summary.generatedTokens == tokens else { throw BenchmarkFailure("a session generated \(summary.generatedTokens) tokens, not \(tokens)") }
                return text
            }
        }
        throw BenchmarkFailure("generation ended without a summary")
    }
}

extension LlamaServer {
    /// One /completion request (`complete`): exactly `tokens` tokens after the prompt's token
    /// ids, greedy, end of generation ignored; the text.
    func completion(prompt: [Token], tokens: Int) async throws -> String {
        let answer = try await complete(["prompt": .array(prompt.map { .int(Int($0)) }), "n_predict": .int(tokens), "temperature": 0,
                                         "ignore_eos": true, "cache_prompt": true, "stream": false], timeout: 600)
        let predicted = answer["tokens_predicted"]?.intValue ?? 0
        guard predicted == tokens else { throw BenchmarkFailure("llama-server generated \(predicted) tokens, not \(tokens)") }
        return answer["content"]?.stringValue ?? ""
    }
}
