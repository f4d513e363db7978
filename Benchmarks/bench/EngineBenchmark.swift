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
                rows += [
                    row("pp\(promptTokens), \(variant), \(threads) thread\(threads == 1 ? "" : "s")",
                        ours.map(\.prompt), reference.map(\.prompt)),
                    row("tg\(generatedTokens), \(variant), \(threads) thread\(threads == 1 ? "" : "s") (greedy sampling included)",
                        ours.map(\.generation), reference.map(\.generation)),
                ]
            }
        }
        return SectionReport(
            name: "engine",
            title: "Engine: tokens per second vs llama-bench, per CPU backend variant and thread count (\(BenchmarkEnvironment.cpuModel); ggml's own pick here: \(best))",
            reference: "llama-bench -p \(promptTokens) -n \(generatedTokens) -t T -r 1, run \(repetitions) times interleaved with ours, both in a mount namespace where ggml's backend folder holds only the variant of the row; medians",
            rows: rows)
    }

    /// Tokens per second for the prompt and for generation.
    struct Speed: Codable { var prompt: Double; var generation: Double }

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
        // a prompt of exactly 512 ordinary tokens, like llama-bench's
        let filler = try model.tokenizer.tokenize(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 60), parseSpecial: false)
        let prompt = Array(filler.prefix(promptTokens))
        _ = try await measure(model, prompt: Array(prompt.prefix(16)), generate: 8)
        let promptSummary = try await measure(model, prompt: prompt, generate: 1)
        let generationSummary = try await measure(model, prompt: Array(prompt.prefix(1)), generate: generatedTokens + 1)
        return Speed(prompt: Double(prompt.count) / promptSummary.prefillDuration.seconds, generation: decodeSpeed(generationSummary))
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
