import Foundation
import LocalModel
import TokenBudget

/// Section "engine": prompt processing and generation speed against `llama-bench` on the same
/// model (`-p 512 -n 128`), at 1 thread and at every core, under each CPU backend variant
/// measured, in the same run.
///
/// Both sides run as child processes that see only the variant under test: each runs in its
/// own mount namespace where ggml's backend folder holds that one library, so ggml's own
/// choice (`ggml_backend_load_all`) loads it in llama-bench and in Lantern alike, the way a
/// machine with that CPU would. Lantern's side is this executable's `engine-probe` mode.
enum EngineBenchmark {
    static let promptTokens = 512
    static let generatedTokens = 128

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let repetitions = environment.quick ? 3 : 7
        guard let library = BackendDevice.cpuVariantLibrary, let best = BackendDevice.cpuVariant else {
            throw BenchmarkFailure("ggml has its CPU backend built in; the engine section needs its variants (libggml-cpu-*.so)")
        }
        let variants = environment.quick ? [best] : variantsToMeasure(best: best, runnable: BackendDevice.runnableCPUVariants)
        let threadCounts = Array(Set([1, environment.threads])).sorted()
        var rows: [BenchmarkRow] = []
        var missed: [String] = []
        for variant in variants {
            let folder = try backendFolder(for: variant, beside: library, in: environment.workDirectory)
            for threads in threadCounts {
                var ours: [Speed] = [], reference: [Speed] = []
                // Interleaved, one repetition each at a time, so that whatever else the machine
                // is doing affects both sides alike.
                for _ in 0..<repetitions {
                    reference.append(try llamaBench(environment, threads: threads, backends: folder, replacing: library))
                    ours.append(try probe(environment, threads: threads, backends: folder, replacing: library))
                }
                let label = "\(variant), \(threads) thread\(threads == 1 ? "" : "s")"
                let promptMetric = "pp\(promptTokens), \(label)", generationMetric = "tg\(generatedTokens), \(label) (greedy sampling included)"
                rows += [row(promptMetric, ours.map(\.prompt), reference.map(\.prompt)),
                         row(generationMetric, ours.map(\.generation), reference.map(\.generation))]
                missed += [missedNote(promptMetric, Sample(ours.map(\.prompt)), Sample(reference.map(\.prompt)), perToken: "prompt token"),
                           missedNote(generationMetric, Sample(ours.map(\.generation)), Sample(reference.map(\.generation)),
                                      perToken: "generated token", inDecode: Sample(ours.compactMap(\.generationInDecode)).median)].compactMap { $0 }
            }
        }
        return SectionReport(
            name: "engine",
            title: "Engine: tokens per second vs llama-bench, per CPU backend variant and thread count (\(BenchmarkEnvironment.cpuModel); ggml's own pick here: \(best))",
            reference: "llama-bench -p \(promptTokens) -n \(generatedTokens) -t T -r 1, run \(repetitions) times interleaved with ours, both in a mount namespace where ggml's backend folder holds only the variant of the row; medians",
            rows: rows,
            notes: missed + ["Both sides decode tokens drawn from the vocabulary (llama-bench's `std::rand() % n_vocab`, ours from a seeded generator): what the cache holds changes attention's speed."])
    }

    /// Tokens per second for the prompt and for generation.
    struct Speed: Codable {
        var prompt: Double
        var generation: Double
        /// Lantern's side only: milliseconds per generated token inside llama_decode, the one
        /// call llama-bench's tg times; the rest of Lantern's token is its own work.
        var generationInDecode: Double?
    }

    /// ggml's pick, plus haswell (AVX2 only: most other x86-64 servers), or sse42 when haswell is
    /// the pick, so the table shows this machine as another CPU would run.
    static func variantsToMeasure(best: String, runnable: [String]) -> [String] {
        let other = best == "haswell" ? "sse42" : "haswell"
        return runnable.contains(other) ? [best, other] : [best]
    }

    /// The least share of llama-bench's speed a speed row must reach.
    static let speedGoal = 0.95

    static func row(_ metric: String, _ ours: [Double], _ reference: [Double]) -> BenchmarkRow {
        let ours = Sample(ours), reference = Sample(reference)
        return BenchmarkRow(metric: metric, ours: ours.median, reference: reference.median, unit: "tokens/s", goal: speedGoal,
                            higherIsBetter: true, spread: "ours \(ours.spread); llama-bench \(reference.spread)")
    }

    /// A folder holding one copy of the variant's library, to stand in for ggml's backend
    /// folder (a copy, not a link: the link would point into the folder it hides).
    private static func backendFolder(for variant: String, beside library: URL, in work: URL) throws -> URL {
        let folder = work.appendingPathComponent("ggml-backends-\(variant)")
        let file = "libggml-cpu-\(variant).so"
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: library.deletingLastPathComponent().appendingPathComponent(file),
                                         to: folder.appendingPathComponent(file))
        return folder
    }

    /// Runs `executable` in a mount namespace where `backends` stands in for ggml's backend
    /// folder (the one holding `library`).
    private static func runSeeingOnly(_ backends: URL, replacing library: URL, _ executable: String, _ arguments: [String]) throws -> String {
        try BenchmarkEnvironment.run("/usr/bin/unshare", [
            "--mount", "--propagation", "private", "/bin/sh", "-c", #"mount --bind "$0" "$1" && shift && exec "$@""#,
            backends.path, library.deletingLastPathComponent().path, executable,
        ] + arguments)
    }

    /// llama-bench's JSON: average tokens/s for the pp and tg tests.
    private static func llamaBench(_ environment: BenchmarkEnvironment, threads: Int, backends: URL, replacing library: URL) throws -> Speed {
        let output = try runSeeingOnly(backends, replacing: library, "/usr/bin/llama-bench", [
            "-m", environment.modelURL.path, "-p", String(promptTokens), "-n", String(generatedTokens),
            "-t", String(threads), "-r", "1", "-o", "json",
        ])
        return try speed(ofLlamaBenchJSON: output)
    }

    /// The pp and tg results of `llama-bench -o json`.
    static func speed(ofLlamaBenchJSON output: String) throws -> Speed {
        struct Test: Decodable { let n_prompt: Int; let n_gen: Int; let avg_ts: Double }
        let tests = try JSONDecoder().decode([Test].self, from: Data(output.utf8))
        guard let prompt = tests.first(where: { $0.n_prompt > 0 }), let generation = tests.first(where: { $0.n_gen > 0 }) else {
            throw BenchmarkFailure("llama-bench printed no pp/tg results")
        }
        return Speed(prompt: prompt.avg_ts, generation: generation.avg_ts)
    }

    /// Lantern's side: this executable's `engine-probe` mode in the same namespace.
    private static func probe(_ environment: BenchmarkEnvironment, threads: Int, backends: URL, replacing library: URL) throws -> Speed {
        let output = try runSeeingOnly(backends, replacing: library, CommandLine.arguments[0], [
            "engine-probe", "--model", environment.modelURL.path, "--threads", String(threads),
        ])
        return try JSONDecoder().decode(Speed.self, from: Data(output.utf8))
    }

    /// `bench engine-probe`: loads the model, warms up as llama-bench does, then measures one
    /// pp512 and one tg128 with Lantern's engine and prints them as JSON.
    static func probe(model url: URL, threads: Int) async throws -> Speed {
        let model = try LocalModel(contentsOf: url, configuration: .init(threads: threads))
        let prompt = randomTokens(model, count: promptTokens)
        _ = try await measure(model, prompt: Array(prompt.prefix(16)), generate: 8)
        let promptSummary = try await measure(model, prompt: prompt, generate: 1)
        let generation = try await generation(model.makeContext(window: ContextWindow(tokens: 1 + generatedTokens + 1)),
                                              after: Array(prompt.prefix(1)), count: generatedTokens)
        return Speed(prompt: Double(prompt.count) / promptSummary.prefillDuration.seconds, generation: generation.speed,
                     generationInDecode: generation.inDecode)
    }

    /// Where a missed speed row's time goes, as far as its runs tell: the extra time per token,
    /// how much of Lantern's token was inside llama_decode (`inDecode`, ms: the one call
    /// llama-bench's tg times) and how much its own work between decodes, and whether the two
    /// sides' runs overlap (then the medians' order is within run-to-run spread). Nil when the
    /// row meets the goal.
    static func missedNote(_ metric: String, _ ours: Sample, _ reference: Sample, perToken: String, inDecode: Double? = nil) -> String? {
        guard ours.median / reference.median < speedGoal else { return nil }
        let (ourTime, theirTime) = (1_000 / ours.median, 1_000 / reference.median)
        var note = String(format: "%@: missed, %.3f of llama-bench's speed: %.2f ms per %@ against %.2f ms, %.2f ms more. ",
                          metric, ours.median / reference.median, ourTime, perToken, theirTime, ourTime - theirTime)
        if let inDecode {
            note += String(format: "Of Lantern's %.2f ms per token, %.2f ms were inside llama_decode and %.2f ms its own work between decodes; ",
                           ourTime, inDecode, ourTime - inDecode)
            note += inDecode > theirTime
                ? String(format: "llama_decode itself took %.2f ms more per token in this process than llama-bench's whole token. ", inDecode - theirTime)
                : "llama_decode itself was no slower than llama-bench's token: the gap is Lantern's work between decodes. "
        }
        let overlap = (ours.values.last ?? 0) >= (reference.values.first ?? .infinity)
        note += overlap
            ? "The runs overlap (ours \(ours.spread); llama-bench \(reference.spread)): the gap is within this machine's spread from run to run."
            : "The runs do not overlap (ours \(ours.spread); llama-bench \(reference.spread)): every run of ours was slower."
        return note
    }

    /// tgN as llama-bench runs it after `tokens` in `context`, whose uncached part is one token:
    /// N + 1 tokens generated, N decoded. Its summary, its speed (`decodeSpeed`) and the
    /// milliseconds per decode spent inside llama_decode (`EngineCounters.decodeDuration`).
    static func generation(_ context: InferenceContext, after tokens: [Token], count: Int) async throws
        -> (summary: GenerationSummary, speed: Double, inDecode: Double) {
        let before = await context.counters
        let summary = try await summary(context, tokens: tokens, generate: count + 1)
        let after = await context.counters
        let decodes = Double(max(1, after.tokensDecoded - before.tokensDecoded))
        return (summary, decodeSpeed(summary), (after.decodeDuration - before.decodeDuration).seconds * 1_000 / decodes)
    }

    /// `count` tokens drawn uniformly from the vocabulary by a seeded generator, as llama-bench
    /// draws its prompt and depth (`std::rand() % n_vocab`): attention's speed depends on what
    /// the cache holds, so both sides decode the same kind of tokens.
    static func randomTokens(_ model: LocalModel, count: Int) -> [Token] {
        var generator = IndexBenchmark.Generator(state: 1)
        return (0..<count).map { _ in Token(generator.below(model.info.vocabularySize)) }
    }

    /// Generation speed as llama-bench's tgN counts it, N decodes of one token, from a summary
    /// of `generate: N + 1`: the last token generated is sampled but never decoded.
    static func decodeSpeed(_ summary: GenerationSummary) -> Double {
        Double(summary.generatedTokens - 1) / summary.generationDuration.seconds
    }

    /// llama-bench sizes its context to each test (prompt + generated tokens); so does this.
    static func measure(_ model: LocalModel, prompt: [Token], generate count: Int) async throws -> GenerationSummary {
        try await summary(model.makeContext(window: ContextWindow(tokens: prompt.count + count)), tokens: prompt, generate: count)
    }

    /// Generates `count` tokens after `tokens` in `context`, end of generation or not, and
    /// returns what it took.
    static func summary(_ context: InferenceContext, tokens: [Token], generate count: Int) async throws -> GenerationSummary {
        let parameters = GenerationParameters(maximumTokens: count, stopsAtEndOfGeneration: false)
        for try await event in context.generate(tokens: tokens, parameters: parameters) {
            if case .finished(let summary) = event { return summary }
        }
        throw BenchmarkFailure("generation ended without a summary")
    }
}
