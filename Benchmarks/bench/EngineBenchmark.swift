import Foundation
import LocalModel
import TokenBudget

/// Section "engine": prompt processing and generation speed against `llama-bench` on the same
/// model and thread count (`-p 512 -n 128`), measured in the same run.
enum EngineBenchmark {
    static let promptTokens = 512
    static let generatedTokens = 128

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let repetitions = environment.quick ? 3 : 7
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: .init(threads: environment.threads))
        // a prompt of exactly 512 ordinary tokens, like llama-bench's
        let filler = try model.tokenizer.tokenize(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 60), parseSpecial: false)
        let prompt = Array(filler.prefix(promptTokens))
        var prefill: [Double] = [], generation: [Double] = []
        var referencePrefill: [Double] = [], referenceGeneration: [Double] = []
        _ = try await measure(model, prompt: Array(prompt.prefix(16)), generate: 8)   // warm-up
        // Interleaved, one repetition each at a time, so that whatever else the machine is
        // doing affects both sides alike.
        for _ in 0..<repetitions {
            let reference = try llamaBench(environment)
            referencePrefill.append(reference.prompt)
            referenceGeneration.append(reference.generation)
            let promptSummary = try await measure(model, prompt: prompt, generate: 1)
            prefill.append(Double(prompt.count) / promptSummary.prefillDuration.seconds)
            let generationSummary = try await measure(model, prompt: Array(prompt.prefix(1)), generate: generatedTokens)
            generation.append(Double(generationSummary.generatedTokens) / generationSummary.generationDuration.seconds)
        }
        let ours = (Sample(prefill), Sample(generation))
        let reference = (Sample(referencePrefill), Sample(referenceGeneration))
        return SectionReport(
            name: "engine",
            title: "Engine: tokens per second vs llama-bench (\(environment.threads) threads)",
            reference: "llama-bench -p \(promptTokens) -n \(generatedTokens) -t \(environment.threads) -r 1, run \(repetitions) times interleaved with ours; medians",
            rows: [
                BenchmarkRow(metric: "prompt processing (pp\(promptTokens))", ours: ours.0.median, reference: reference.0.median,
                             unit: "tokens/s", goal: 0.95, higherIsBetter: true,
                             spread: "ours \(ours.0.spread); llama-bench \(reference.0.spread)"),
                BenchmarkRow(metric: "generation (tg\(generatedTokens), greedy sampling included)", ours: ours.1.median,
                             reference: reference.1.median, unit: "tokens/s", goal: 0.95, higherIsBetter: true,
                             spread: "ours \(ours.1.spread); llama-bench \(reference.1.spread)"),
            ])
    }

    /// llama-bench sizes its context to each test (prompt + generated tokens); so does this.
    private static func measure(_ model: LocalModel, prompt: [Token], generate count: Int) async throws -> GenerationSummary {
        let context = try model.makeContext(window: ContextWindow(tokens: prompt.count + count))
        let parameters = GenerationParameters(maximumTokens: count, stopsAtEndOfGeneration: false)
        for try await event in context.generate(tokens: prompt, parameters: parameters) {
            if case .finished(let summary) = event { return summary }
        }
        throw BenchmarkFailure("generation ended without a summary")
    }

    /// Runs llama-bench and reads its JSON: average tokens/s for the pp and tg tests.
    private static func llamaBench(_ environment: BenchmarkEnvironment) throws -> (prompt: Double, generation: Double) {
        let output = try BenchmarkEnvironment.run("/usr/bin/llama-bench", [
            "-m", environment.modelURL.path, "-p", String(promptTokens), "-n", String(generatedTokens),
            "-t", String(environment.threads), "-r", "1", "-o", "json",
        ])
        struct Test: Decodable { let n_prompt: Int; let n_gen: Int; let avg_ts: Double }
        let tests = try JSONDecoder().decode([Test].self, from: Data(output.utf8))
        guard let prompt = tests.first(where: { $0.n_prompt > 0 }), let generation = tests.first(where: { $0.n_gen > 0 }) else {
            throw BenchmarkFailure("llama-bench printed no pp/tg results")
        }
        return (prompt.avg_ts, generation.avg_ts)
    }
}
