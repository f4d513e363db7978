import Evaluations
import Foundation
import Lantern
import LocalModel

/// Section "serve" (issue 49 §4): `ask serve` answering N clients at once, against llama-server
/// `--parallel N` doing the same work for N clients at once, at 1, 4 and 8 clients.
///
/// Ours: the release `ask serve` over the sample corpus (no vectors, as the e2e fixture's
/// index), `--parallel N`, each client an OpenAI-style chat completion per question. The
/// reference: llama-server with N slots and N times the window, each client a
/// `QuestionAnswerer` over `OpenAICompatibleModel` (the public remote model) with the e2e
/// fixture's index and search setup, so the server decodes the prompts `ask serve` decodes, the
/// same rounds, grammars, searches and caps. Every client asks `perClient` of the sample
/// questions one after another, client k starting at question k; a side's throughput is the
/// requests it answered over the wall time of the whole round, its latencies those of every
/// request. One untimed question per side first, so both start with the system turn cached.
/// The two servers run one after the other, never at once.
enum ServeBenchmark {
    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let fixture = try await EndToEndBenchmark.Fixture(environment: environment)
        defer { fixture.remove() }
        let questions = try SampleReader().samples(contentsOf: SampleData.trailsSamples).map(\.prompt)
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
        let window = model.defaultContextWindow
        let style = GenerationOptions.AnswerStyle.automatic.resolved(parameterCount: model.parameterCount)
        let modelID = environment.modelURL.deletingPathExtension().lastPathComponent
        let cap = EndToEndBenchmark.maximumResponseTokens
        let counts = environment.quick ? [1, 4] : [1, 4, 8]
        let perClient = environment.quick ? 2 : 3

        var rows: [BenchmarkRow] = []
        var notes = ["Questions: the \(questions.count) trail samples in turn, \(perClient) per client; answer style \(style.rawValue), "
                     + "window \(window.tokens) tokens per client, \(cap) tokens per round, threads \(environment.threads)."]
        for count in counts {
            let timeout = EndToEndBenchmark.questionTimeout * Double(count)
            var ours: Load
            do {
                let server = try await AskServer(["--corpus", SampleData.trailsCorpus.path, "--embedding-model", "none",
                                                  "--model", environment.modelURL.path, "--threads", String(environment.threads),
                                                  "--context", String(window.tokens), "--parallel", String(count), "--queue", String(count),
                                                  "--max-tokens", String(cap), "--answer", style.rawValue], folder: fixture.folder)
                defer { server.server.stop() }
                let ask = { @Sendable (question: String) async throws -> Int in
                    try await server.ask(question, model: modelID, maximumTokens: cap, timeout: timeout).promptTokens
                }
                _ = try await ask(questions[0])
                ours = await Load(clients: count, perClient: perClient, questions: questions, ask)
                ours.peakResidentBytes = server.server.peakResidentBytes
            }
            var theirs: Load
            do {
                let server = try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: count * window.tokens,
                                                   parallel: count, logDirectory: fixture.folder)
                defer { server.stop() }
                var answerer = QuestionAnswerer(model: try await server.model(vocabulary: model, timeout: timeout), setup: fixture.setup)
                answerer.window = window
                answerer.maximumTokens = cap
                answerer.maximumCallRoundTokens = cap
                answerer.answerStyle = style
                let ask = { @Sendable [answerer] (question: String) async throws -> Int in try await answerer.answer(question).tokens.prompt }
                _ = try await ask(questions[0])
                theirs = await Load(clients: count, perClient: perClient, questions: questions, ask)
                theirs.peakResidentBytes = server.peakResidentBytes
            }
            let goals = count >= 4
            let clients = count == 1 ? "1 client" : "\(count) clients"
            rows.append(BenchmarkRow(metric: "\(clients): requests per second", ours: ours.throughput, reference: theirs.throughput,
                                     unit: "req/s", goal: goals ? 0.9 : nil, higherIsBetter: true))
            rows.append(BenchmarkRow(metric: "\(clients): latency p50", ours: ours.latency(50), reference: theirs.latency(50),
                                     unit: "s", goal: nil, higherIsBetter: false))
            rows.append(BenchmarkRow(metric: "\(clients): latency p99", ours: ours.latency(99), reference: theirs.latency(99),
                                     unit: "s", goal: goals ? 1.2 : nil, higherIsBetter: false))
            if let oursPeak = ours.peakResidentBytes, let theirsPeak = theirs.peakResidentBytes {
                rows.append(BenchmarkRow(metric: "\(clients): peak resident memory", ours: Double(oursPeak) / mebibyte,
                                         reference: Double(theirsPeak) / mebibyte, unit: "MiB", goal: nil, higherIsBetter: false))
            }
            notes.append("\(clients): ask serve \(ours.summary); llama-server \(theirs.summary).")
        }
        return SectionReport(
            name: "serve", title: "Serving: clients at once through ask serve",
            reference: "llama-server --parallel N -c N×window, the same work (QuestionAnswerer over OpenAICompatibleModel, the same index, setup, caps and answer style) for N clients at once",
            rows: rows, notes: notes)
    }

    private static let mebibyte = 1024.0 * 1024

    /// One side's round: `clients` asking at once, each its questions one after another.
    struct Load: Sendable {
        private(set) var latencies: [Double] = []
        private(set) var promptTokens: [Int] = []
        private(set) var failures: [String] = []
        private(set) var wall = 0.0
        var peakResidentBytes: Int?

        /// Runs the round: `ask` answers one question and returns its prompt tokens (all rounds).
        init(clients: Int, perClient: Int, questions: [String], _ ask: @escaping @Sendable (String) async throws -> Int) async {
            let start = ContinuousClock.now
            let results = await withTaskGroup(of: [(Double, Result<Int, any Error>)].self) { group in
                for client in 0..<clients {
                    group.addTask {
                        var results: [(Double, Result<Int, any Error>)] = []
                        for number in 0..<perClient {
                            let question = questions[(client + number * clients) % questions.count]
                            let asked = ContinuousClock.now
                            let result: Result<Int, any Error>
                            do { result = .success(try await ask(question)) } catch { result = .failure(error) }
                            results.append(((ContinuousClock.now - asked).seconds, result))
                        }
                        return results
                    }
                }
                return await group.reduce(into: []) { $0 += $1 }
            }
            wall = (ContinuousClock.now - start).seconds
            for (seconds, result) in results {
                switch result {
                case .success(let tokens):
                    latencies.append(seconds)
                    promptTokens.append(tokens)
                case .failure(let error):
                    failures.append(String(describing: error).prefix(200).description)
                }
            }
        }

        /// Requests answered per second of the round's wall time.
        var throughput: Double { wall > 0 ? Double(latencies.count) / wall : 0 }

        func latency(_ percentile: Double) -> Double { Sample(latencies).percentile(percentile) }

        var summary: String {
            let tokens = promptTokens.isEmpty ? 0 : promptTokens.reduce(0, +) / promptTokens.count
            var text = String(format: "%d answered in %.1f s, mean %d prompt tokens a question", latencies.count, wall, tokens)
            if !failures.isEmpty { text += ", \(failures.count) failed (first: \(failures[0]))" }
            return text
        }
    }
}
