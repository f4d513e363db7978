import CommandLineArguments
import Evaluations
import Foundation
import LocalModel

/// Section "embedding" (issue 29 §5, its first part): embedding throughput, passages per second,
/// through Lantern's `EmbeddingModel` and through `llama-server --embeddings` — the peer a user
/// would run instead — on the same GGUF (models.lock's default embedding model), with the same
/// threads, the same batch limits (tokens per forward pass, texts per pass) and the same
/// passages sent in the same requests of `requestSize` texts. Rounds alternate between the two
/// sides, so whatever else the machine does affects both alike.
enum EmbeddingBenchmark {
    /// Texts per call on both sides (an indexer's batch): one `embed` call, one /v1/embeddings request.
    static let requestSize = 64
    /// The texts the model reads at most, framing included (all-MiniLM-L6-v2's trained context).
    static let slotContext = 512

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let modelURL = try embeddingModelURL()
        let passages = try Passages.make(count: environment.quick ? 300 : 2_000)
        let rounds = environment.quick ? 1 : 3
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

        var ourSeconds: [Double] = [], theirSeconds: [Double] = []
        var ourVectors: [[Float]] = [], theirVectors: [[Float]] = []
        var ourTokens = 0, theirTokens = 0
        for round in 1...rounds {
            let start = ContinuousClock.now
            var vectors: [[Float]] = []
            var tokens = 0
            for request in stride(from: 0, to: passages.count, by: requestSize) {
                let embeddings = try await model.embeddings(for: Array(passages[request..<min(request + requestSize, passages.count)]))
                vectors += embeddings.map(\.vector)
                tokens += embeddings.reduce(0) { $0 + $1.tokenCount }
            }
            ourSeconds.append((ContinuousClock.now - start).seconds)
            (ourVectors, ourTokens) = (vectors, tokens)
            FileHandle.standardError.write(Data(String(format: "bench: embedding round %d/%d, Lantern: %.1f passages/s\n",
                                                       round, rounds, Double(passages.count) / ourSeconds.last!).utf8))

            var serverSeconds = 0.0
            vectors = []
            tokens = 0
            for request in stride(from: 0, to: passages.count, by: requestSize) {
                let answer = try await server.embeddings(Array(passages[request..<min(request + requestSize, passages.count)]))
                serverSeconds += answer.seconds
                vectors += answer.vectors
                tokens += answer.promptTokens
            }
            theirSeconds.append(serverSeconds)
            (theirVectors, theirTokens) = (vectors, tokens)
            FileHandle.standardError.write(Data(String(format: "bench: embedding round %d/%d, llama-server: %.1f passages/s\n",
                                                       round, rounds, Double(passages.count) / serverSeconds).utf8))
        }

        let ours = Sample(ourSeconds.map { Double(passages.count) / $0 })
        let theirs = Sample(theirSeconds.map { Double(passages.count) / $0 })
        let similarities = zip(ourVectors, theirVectors).map { pair in zip(pair.0, pair.1).reduce(Float(0)) { $0 + $1.0 * $1.1 } }
        let words = passages.reduce(0) { $0 + $1.split(separator: " ").count }
        return SectionReport(
            name: "embedding",
            title: "Embedding: passages per second, Lantern's EmbeddingModel vs llama-server --embeddings",
            reference: "llama-server --embeddings on the same GGUF, threads and batch limits, driven by the same requests",
            rows: [
                BenchmarkRow(metric: "passages embedded per second", ours: ours.median, reference: theirs.median, unit: "passages/s",
                             goal: 0.95, higherIsBetter: true, spread: ours.spread,
                             note: "llama-server " + String(format: "%.1f–%.1f", theirs.values.first ?? .nan, theirs.values.last ?? .nan)),
                BenchmarkRow(metric: "tokens embedded per second", ours: Double(ourTokens) * ours.median / Double(passages.count),
                             reference: Double(theirTokens) * theirs.median / Double(passages.count), unit: "tokens/s",
                             goal: nil, higherIsBetter: true),
                BenchmarkRow(metric: "lowest cosine between the two sides' vectors", ours: Double(similarities.min() ?? .nan), reference: nil,
                             unit: "", goal: 0.999, higherIsBetter: true, note: "over all \(similarities.count) passages"),
            ],
            notes: [
                "\(modelURL.lastPathComponent) (\(model.dimension) dimensions, \(model.pooling) pooling), \(environment.threads) threads. "
                    + "\(passages.count) passages of 100–200 words (\(words / passages.count) on average, \(ourTokens / passages.count) tokens), "
                    + "sentences of the sample trail notes drawn by a seeded generator; \(rounds) round\(rounds == 1 ? "" : "s") per side, alternating. "
                    + "Both sides: requests of \(requestSize) texts, at most \(configuration.maximumTextsPerBatch) texts and "
                    + "\(configuration.batchTokens) tokens per forward pass (Lantern's defaults; the server with "
                    + "-np \(configuration.maximumTextsPerBatch) -b/-ub \(configuration.batchTokens)). "
                    + "The server's time is the sum of its requests' round trips (parsing its JSON answers is not counted); "
                    + "Lantern's is the wall time of its embed calls, tokenization included.",
            ])
    }

    /// models/ file of models.lock's default embedding model; fails saying how to install it.
    static func embeddingModelURL() throws -> URL {
        struct Lock: Decodable {
            struct Entry: Decodable { let name: String; let file: String }
            let defaultEmbedding: String
            let embeddingModels: [Entry]
        }
        guard let catalog = try ModelCatalog.locate() else { throw BenchmarkFailure("no models.lock found; run bench from the Lantern repository") }
        let lock = try JSONDecoder().decode(Lock.self, from: Data(contentsOf: catalog.url))
        guard let entry = lock.embeddingModels.first(where: { $0.name == lock.defaultEmbedding }) else {
            throw BenchmarkFailure("models.lock names no default embedding model")
        }
        let url = catalog.modelsDirectory.appendingPathComponent(entry.file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw BenchmarkFailure("the embedding model \(url.path) is not installed; run scripts/setup.sh")
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
        let response = try await LocalHTTP.request(port: port, method: "POST", path: "/v1/embeddings", json: body, timeout: 600)
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
