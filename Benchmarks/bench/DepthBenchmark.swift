import Foundation
import LocalModel
import TokenBudget

/// Section "depth" (issue 26 §3): prompt and generation speed with prior context in the cache,
/// at depths of 0, 1k, 4k and 8k tokens, against `llama-bench -d` at the same depths (pp512 and
/// tg128 after the depth, which neither side times), and what the prefix cache saves at each
/// depth: the time to first token of a prompt that extends the cached depth by 16 tokens,
/// against the same prompt decoded from an empty cache.
///
/// Lantern's side runs in this process with ggml's own CPU variant; llama-bench as a child
/// process. The two take turns repetition by repetition, so load on the machine meets both.
/// Both attend over the same kind of context, tokens drawn from the vocabulary as llama-bench
/// draws them (`EngineBenchmark.randomTokens`): what the cache holds changes attention's speed.
/// With repeated English sentences in its cache instead, Lantern measured 0.83–0.90 of
/// llama-bench's tg speed at 1k (the time inside llama_decode alone 14 % longer) and 1.07–1.21
/// at 8k.
enum DepthBenchmark {
    static let promptTokens = EngineBenchmark.promptTokens
    static let generatedTokens = EngineBenchmark.generatedTokens
    /// New tokens after the cached depth in the prefix-cache rows: a short follow-up question.
    static let followUpTokens = 16

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let depths = environment.quick ? [0, 1_024, 4_096] : [0, 1_024, 4_096, 8_192]
        let repetitions = environment.quick ? 1 : 3
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: .init(threads: environment.threads))
        let tokens = EngineBenchmark.randomTokens(model, count: (depths.max() ?? 0) + promptTokens + generatedTokens)
        var rows: [BenchmarkRow] = []
        var missed: [String] = []
        for depth in depths {
            var ours: [EngineBenchmark.Speed] = [], reference: [EngineBenchmark.Speed] = []
            var warm: [Double] = [], cold: [Double] = []
            // llama-bench sizes its context the same way, past the 8,192 tokens SmolLM2 was trained for at 8k
            let context = try model.makeContext(window: ContextWindow(tokens: depth + promptTokens + generatedTokens + 1), allowBeyondTrainedContext: true)
            for _ in 0..<repetitions {
                reference.append(try llamaBench(environment, depth: depth))
                ours.append(try await speed(context, tokens: tokens, depth: depth))
                if depth > 0 {
                    let (withCache, fromEmpty) = try await firstTokenTimes(context, tokens: tokens, depth: depth)
                    warm.append(withCache)
                    cold.append(fromEmpty)
                }
            }
            let promptMetric = "pp\(promptTokens) at depth \(depth)", generationMetric = "tg\(generatedTokens) at depth \(depth) (greedy sampling included)"
            rows.append(EngineBenchmark.row(promptMetric, ours.map(\.prompt), reference.map(\.prompt)))
            rows.append(EngineBenchmark.row(generationMetric, ours.map(\.generation), reference.map(\.generation)))
            let generation = (ours: Sample(ours.map(\.generation)), reference: Sample(reference.map(\.generation)))
            let decoding = Sample(ours.compactMap(\.generationInDecode)), referencePerToken = Sample(reference.map { 1_000 / $0.generation })
            rows.append(BenchmarkRow(
                metric: "ms per generated token inside llama_decode at depth \(depth), ours vs llama-bench's whole tg token", ours: decoding.median,
                reference: referencePerToken.median, unit: "ms", goal: nil, higherIsBetter: false,
                spread: "ours \(decoding.spread); llama-bench \(referencePerToken.spread)"))
            missed += [EngineBenchmark.missedNote(promptMetric, Sample(ours.map(\.prompt)), Sample(reference.map(\.prompt)), perToken: "prompt token"),
                       EngineBenchmark.missedNote(generationMetric, generation.ours, generation.reference, perToken: "generated token",
                                                  inDecode: decoding.median)].compactMap { $0 }
            if depth > 0 {
                let warm = Sample(warm), cold = Sample(cold)
                rows.append(BenchmarkRow(
                    metric: "time to first token, \(depth) cached + \(followUpTokens) new vs all \(depth + followUpTokens) decoded", ours: warm.median,
                    reference: cold.median, unit: "ms", goal: nil, higherIsBetter: false,
                    spread: "cached \(warm.spread); from empty \(cold.spread)"))
            }
        }
        return SectionReport(
            name: "depth",
            title: "Context depth: tokens per second after 0–8k tokens of prior context vs llama-bench -d, and the prefix cache at each depth",
            reference: "llama-bench -p \(promptTokens) -n \(generatedTokens) -d D -t \(environment.threads) -r 1, run \(repetitions) times interleaved with ours; medians. Prefix-cache rows: the same prompt decoded from an empty cache, same context",
            rows: rows,
            notes: missed + ["Both sides decode the depth first and do not time it: llama-bench before each test, Lantern into its context's cache (pp: the prompt after the cached depth; tg: one token after it, then \(generatedTokens + 1) generated, all but the last decoded). Lantern runs in the bench process with ggml's own CPU variant, \(environment.threads) threads, a context of depth + \(promptTokens + generatedTokens + 1) tokens."])
    }

    /// pp and tg after `depth` cached tokens, as llama-bench -d measures them.
    private static func speed(_ context: InferenceContext, tokens: [Token], depth: Int) async throws -> EngineBenchmark.Speed {
        let prior = Array(tokens.prefix(depth))
        await context.reset()
        _ = try await context.prefill(tokens: prior) as Int
        let prompt = try await EngineBenchmark.summary(context, tokens: Array(tokens.prefix(depth + promptTokens)), generate: 1)
        // the cache keeps the depth and drops the prompt: generation starts right after the depth
        let generation = try await EngineBenchmark.generation(context, after: prior + [tokens[depth]], count: generatedTokens)
        guard prompt.reusedTokens == depth, generation.summary.reusedTokens == depth else {
            throw BenchmarkFailure("the cache reused \(prompt.reusedTokens) and \(generation.summary.reusedTokens) tokens, not the depth of \(depth)")
        }
        return EngineBenchmark.Speed(prompt: Double(promptTokens) / prompt.prefillDuration.seconds,
                                     generation: generation.speed, generationInDecode: generation.inDecode)
    }

    /// Milliseconds to the first token of `depth` + `followUpTokens` tokens with the depth
    /// cached, then from an empty cache.
    private static func firstTokenTimes(_ context: InferenceContext, tokens: [Token], depth: Int) async throws -> (cached: Double, fromEmpty: Double) {
        let prompt = Array(tokens.prefix(depth + followUpTokens))
        await context.reset()
        _ = try await context.prefill(tokens: Array(prompt.prefix(depth))) as Int
        let cached = try await EngineBenchmark.summary(context, tokens: prompt, generate: 1)
        await context.reset()
        let fromEmpty = try await EngineBenchmark.summary(context, tokens: prompt, generate: 1)
        return ((cached.prefillDuration.seconds) * 1_000, fromEmpty.prefillDuration.seconds * 1_000)
    }

    private static func llamaBench(_ environment: BenchmarkEnvironment, depth: Int) throws -> EngineBenchmark.Speed {
        let output = try BenchmarkEnvironment.run("/usr/bin/llama-bench", [
            "-m", environment.modelURL.path, "-p", String(promptTokens), "-n", String(generatedTokens), "-d", String(depth),
            "-t", String(environment.threads), "-r", "1", "-o", "json",
        ])
        return try EngineBenchmark.speed(ofLlamaBenchJSON: output)
    }
}
