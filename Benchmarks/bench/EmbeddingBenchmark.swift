import CommandLineArguments
import Evaluations
import Foundation
import Lantern
import LocalModel
import RemoteModel

/// Section "embedding" (issue 29 §5, its first part): embedding throughput, passages per second,
/// through Lantern's `EmbeddingModel` and through `llama-server --embeddings` — the peer a user
/// would run instead — on the same GGUF (models.lock's default embedding model), with the same
/// threads, the same batch limits (tokens per forward pass, texts per pass) and the same
/// passages sent in the same requests of `requestSize` texts. The two sides take turns request
/// by request, so whatever else the machine does affects both alike.
enum EmbeddingBenchmark {
    /// Texts per call on both sides (an indexer's batch): one `embed` call, one /v1/embeddings
    /// request. Small enough that the two sides take turns every few seconds.
    static let requestSize = 16
    /// The texts the model reads at most, framing included (all-MiniLM-L6-v2's trained context).
    static let slotContext = 512

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let modelURL = try embeddingModelURL()
        let passages = try Passages.make(count: environment.quick ? 300 : 2_000)
        let configuration = EmbeddingModel.Configuration(threads: environment.threads)
        let model = try EmbeddingModel(contentsOf: modelURL, configuration: configuration)
        let folder = environment.workDirectory.appendingPathComponent("embedding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // the server's batch is Lantern's: as many slots as texts per pass, each holding one
        // text whole, and one forward pass of at most batchTokens tokens over them
        let server = try await LlamaServer(
            model: modelURL, threads: environment.threads, context: slotContext * configuration.maximumTextsPerBatch,
            parallel: configuration.maximumTextsPerBatch,
            extraArguments: ["--embeddings", "-b", String(configuration.batchTokens), "-ub", String(configuration.batchTokens)],
            logDirectory: folder)
        defer { server.stop() }

        // request by request, each side in turn (the first side alternating), so a busy spell
        // of the machine slows both alike
        var ourSeconds: [Double] = [], theirSeconds: [Double] = []
        var ourVectors: [[Float]] = [], theirVectors: [[Float]] = []
        var ourTokens = 0, theirTokens = 0
        let requests = stride(from: 0, to: passages.count, by: requestSize).map { Array(passages[$0..<min($0 + requestSize, passages.count)]) }
        for (number, texts) in requests.enumerated() {
            func lantern() async throws {
                let start = ContinuousClock.now
                let embeddings = try await model.embeddings(for: texts)
                ourSeconds.append((ContinuousClock.now - start).seconds)
                ourVectors += embeddings.map(\.vector)
                ourTokens += embeddings.reduce(0) { $0 + $1.tokenCount }
            }
            func peer() async throws {
                let answer = try await server.embeddings(texts)
                theirSeconds.append(answer.seconds)
                theirVectors += answer.vectors
                theirTokens += answer.promptTokens
            }
            if number.isMultiple(of: 2) {
                try await lantern()
                try await peer()
            } else {
                try await peer()
                try await lantern()
            }
            FileHandle.standardError.write(Data(String(format: "bench: embedding request %d/%d: Lantern %.1f, llama-server %.1f passages/s\n",
                                                       number + 1, requests.count, Double(texts.count) / ourSeconds.last!,
                                                       Double(texts.count) / theirSeconds.last!).utf8))
        }

        let ours = Double(passages.count) / ourSeconds.reduce(0, +)
        let theirs = Double(passages.count) / theirSeconds.reduce(0, +)
        let ourRates = Sample(zip(requests, ourSeconds).map { Double($0.count) / $1 })
        let theirRates = Sample(zip(requests, theirSeconds).map { Double($0.count) / $1 })
        let pairedRatios = Sample(zip(ourSeconds, theirSeconds).map { $1 / $0 })
        let similarities = zip(ourVectors, theirVectors).map { pair in zip(pair.0, pair.1).reduce(Float(0)) { $0 + $1.0 * $1.1 } }
        let words = passages.reduce(0) { $0 + $1.split(separator: " ").count }
        return SectionReport(
            name: "embedding",
            title: "Embedding: passages per second, Lantern's EmbeddingModel vs llama-server --embeddings",
            reference: "llama-server --embeddings on the same GGUF, threads and batch limits, driven by the same requests",
            rows: [
                BenchmarkRow(metric: "passages embedded per second", ours: ours, reference: theirs, unit: "passages/s",
                             goal: 0.95, higherIsBetter: true, spread: Self.spread(ourRates),
                             note: "per request; llama-server " + Self.spread(theirRates)),
                BenchmarkRow(metric: "speed ratio of a request, median (each request timed on both sides back to back)", ours: pairedRatios.median,
                             reference: nil, unit: "×", goal: 0.95, higherIsBetter: true,
                             spread: String(format: "p10–p90 %.2f–%.2f", pairedRatios.percentile(10), pairedRatios.percentile(90)),
                             note: "less swayed than the totals by what else the machine runs"),
                BenchmarkRow(metric: "tokens embedded per second", ours: Double(ourTokens) / ourSeconds.reduce(0, +),
                             reference: Double(theirTokens) / theirSeconds.reduce(0, +), unit: "tokens/s", goal: nil, higherIsBetter: true),
                BenchmarkRow(metric: "lowest cosine between the two sides' vectors", ours: Double(similarities.min() ?? .nan), reference: nil,
                             unit: "", goal: 0.999, higherIsBetter: true, note: "over all \(similarities.count) passages"),
            ],
            notes: [
                "\(modelURL.lastPathComponent) (\(model.dimension) dimensions, \(model.pooling) pooling), \(environment.threads) threads. "
                    + "\(passages.count) passages of 100–200 words (\(words / passages.count) on average, \(ourTokens / passages.count) tokens), "
                    + "sentences of the sample trail notes drawn by a seeded generator, each embedded once per side. "
                    + "Both sides: requests of \(requestSize) texts, each side's in turn, at most \(configuration.maximumTextsPerBatch) texts and "
                    + "\(configuration.batchTokens) tokens per forward pass (Lantern's defaults; the server with "
                    + "-np \(configuration.maximumTextsPerBatch) -b/-ub \(configuration.batchTokens)). "
                    + "The server's time is the sum of its requests' round trips (parsing its JSON answers is not counted); "
                    + "Lantern's is the wall time of its embed calls, tokenization included. Rates are total passages over total time.",
            ])
    }

    /// "p10–p90 a–b over N requests" of per-request rates.
    static func spread(_ rates: Sample) -> String {
        String(format: "p10–p90 %.1f–%.1f over %d requests", rates.percentile(10), rates.percentile(90), rates.values.count)
    }

    /// models/ file of models.lock's default embedding model; fails saying how to install it.
    static func embeddingModelURL() throws -> URL {
        guard let url = try ModelLocator().locateEmbeddingModel(nil) else {
            throw BenchmarkFailure("the default embedding model is not installed; run scripts/setup.sh")
        }
        return url
    }

    /// The benchmark's passages: English prose of 100–200 words, the same every run.
    enum Passages {
        static func make(count: Int) throws -> [String] {
            let sentences = try trailSentences()
            var generator = IndexBenchmark.Generator(state: 29)
            return (0..<count).map { _ in
                let target = 100 + generator.below(101)
                var words = 0
                var passage: [String] = []
                while words < target {
                    let sentence = sentences[generator.below(sentences.count)]
                    passage.append(sentence)
                    words += sentence.split(separator: " ").count
                }
                return passage.joined(separator: " ")
            }
        }

        /// Every sentence of the sample corpus's trail notes.
        static func trailSentences() throws -> [String] {
            struct Row: Decodable {
                struct Attributes: Decodable { let textContent: String }
                let attributes: Attributes
            }
            let lines = try String(contentsOf: SampleData.trailsCorpus, encoding: .utf8).split(separator: "\n")
            let notes = try lines.map { try JSONDecoder().decode(Row.self, from: Data($0.utf8)).attributes.textContent }
            return notes.flatMap { note in
                note.split(separator: ". ").map { $0.hasSuffix(".") ? String($0) : $0 + "." }
            }
        }
    }
}

extension LlamaServer {
    /// One /v1/embeddings request for `texts`: the vectors in order, the tokens the server
    /// counted, and the request's round trip in seconds (the answer's parsing left out).
    func embeddings(_ texts: [String]) async throws -> (vectors: [[Float]], promptTokens: Int, seconds: Double) {
        let body = try JSONSerialization.data(withJSONObject: ["input": texts])
        let start = ContinuousClock.now
        let response = try await HTTPClient.send(.post(url("/v1/embeddings"), json: body), timeout: .seconds(600))
        let seconds = (ContinuousClock.now - start).seconds
        guard response.status == 200,
              let answer = try JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let data = answer["data"] as? [[String: Any]] else {
            throw BenchmarkFailure("llama-server answered /v1/embeddings with \(response.status): \(String(decoding: response.body.prefix(300), as: UTF8.self)); its log ends: \(logTail)")
        }
        let ordered = data.sorted { ($0["index"] as? Int ?? 0) < ($1["index"] as? Int ?? 0) }
        let vectors = ordered.map { (($0["embedding"] as? [Any]) ?? []).compactMap { ($0 as? NSNumber)?.floatValue } }
        guard vectors.count == texts.count else { throw BenchmarkFailure("llama-server returned \(vectors.count) vectors for \(texts.count) texts") }
        let tokens = (answer["usage"] as? [String: Any])?["prompt_tokens"] as? Int ?? 0
        return (vectors, tokens, seconds)
    }
}
