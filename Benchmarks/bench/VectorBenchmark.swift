import Foundation
import SearchIndex
import SearchTool

/// The vectors section: what search by meaning costs. An index of the index section's generated
/// notes is built without vectors and with the real embedding model (build rate, size on disk),
/// then at larger sizes with stand-in vectors (embedding a million notes here would take hours,
/// and the search's cost does not depend on the vectors' values) whose queries the real model
/// embeds, to time full-text and hybrid top-10 searches side by side.
enum VectorBenchmark {
    /// Vectors seeded by each text's bytes for building; for searching (`forQueries`), the real
    /// model's, so a search pays what it pays in use. Both have one identity, so the index built
    /// with one opens with the other.
    struct StandInEmbedder: TextEmbedder {
        let model: ModelTextEmbedder
        let forQueries: Bool
        var identity: String { "stand-in vectors (\(model.dimension) dimensions) with queries by \(model.identity)" }
        var dimension: Int { model.dimension }

        func embed(_ texts: [String]) async throws -> [[Float]] {
            if forQueries { return try await model.embed(texts) }
            return texts.map { text in
                var generator = IndexBenchmark.Generator(state: text.utf8.reduce(5381) { ($0 &* 33) &+ UInt64($1) })
                return (0..<dimension).map { _ in Float(generator.unit() * 2 - 1) }
            }
        }
    }

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let modelURL = try EmbeddingBenchmark.embeddingModelURL()
        let embedder = try ModelTextEmbedder(contentsOf: modelURL, threads: environment.threads)
        let folder = environment.workDirectory.appendingPathComponent("vectors")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let buildCount = environment.quick ? 300 : 2_000
        let notes = IndexBenchmark.notes(count: buildCount)

        // 1. the same notes without and with real vectors
        let plain = try await build(notes, at: folder.appendingPathComponent("plain.sqlite"), embedder: nil)
        let embedded = try await build(notes, at: folder.appendingPathComponent("embedded.sqlite"), embedder: embedder)
        let vectorCount = try await embedded.index.vectorCount()
        var rows = [
            BenchmarkRow(metric: "build rate, notes with vectors vs without", ours: Double(buildCount) / embedded.seconds,
                         reference: Double(buildCount) / plain.seconds, unit: "notes/s", goal: nil, higherIsBetter: true,
                         note: "\(buildCount) notes, \(vectorCount) vectors (\(String(format: "%.1f", Double(vectorCount) / Double(buildCount))) sentence pieces per note), words written, then embedded by the embedding pass; the reference is the same build without an embedder"),
            BenchmarkRow(metric: "pieces embedded per second while building", ours: Double(vectorCount) / embedded.seconds, reference: nil,
                         unit: "pieces/s", goal: nil, higherIsBetter: true, note: nil),
            BenchmarkRow(metric: "size on disk, with vectors vs without", ours: Double(embedded.bytes) / 1_048_576,
                         reference: Double(plain.bytes) / 1_048_576, unit: "MiB", goal: nil, higherIsBetter: false,
                         note: String(format: "%.0f bytes per vector (int8 and a scale, %d dimensions, and its row)",
                                      Double(embedded.bytes - plain.bytes) / Double(max(1, vectorCount)), embedder.dimension)),
        ]
        var notesText = [
            "Notes: the index section's generator (a title of 3–6 words, 70–90 words of body, keywords, dates, a rating). Vectors: all-MiniLM-L6-v2 (\(embedder.dimension) dimensions) per sentence piece (`PassageEmbeddingText`), int8 with a scale per vector (recall@10 against f32 0.996, `QuantizedVector`).",
        ]

        // 2. full-text vs hybrid top-10 at two sizes, stand-in vectors, real query embeddings
        let queries = twoWordQueries()
        for size in environment.quick ? [10_000, 100_000] : [100_000, 1_000_000] {
            let file = folder.appendingPathComponent("stand-in-\(size).sqlite")
            _ = try await build(IndexBenchmark.notes(count: size), at: file, embedder: StandInEmbedder(model: embedder, forQueries: false))
            let index = try SearchableIndex(url: file, timeZone: TimeZone(identifier: "UTC") ?? .current,
                                            embedder: StandInEmbedder(model: embedder, forQueries: true))
            // the first search by meaning loads the vectors; the searches after it are timed
            _ = try await index.search(SearchQuery(.meaning("warm up"), limit: 1))
            let vectors = try await index.vectorCount()
            var fullText: [Double] = [], hybrid: [Double] = [], embedding: [Double] = []
            for words in queries {
                embedding.append(try await IndexBenchmark.milliseconds { _ = try await embedder.embed([words]) })
                let predicate = QueryPredicate.fullText(words)
                fullText.append(try await IndexBenchmark.milliseconds {
                    _ = try await index.search(SearchQuery(predicate, limit: 10, wordsSearch: .fullText))
                })
                hybrid.append(try await IndexBenchmark.milliseconds {
                    _ = try await index.search(SearchQuery(predicate, limit: 10, wordsSearch: .hybrid))
                })
            }
            for (p, goal) in [(0.5, size >= 1_000_000 ? 150.0 : 20.0), (0.99, nil)] as [(Double, Double?)] {
                let ours = IndexBenchmark.percentile(hybrid, p)
                rows.append(BenchmarkRow(
                    metric: "hybrid two-word top-10 p\(Int(p * 100)) at \(size / 1_000)k notes (\(vectors / 1_000)k vectors) vs full text", ours: ours,
                    reference: IndexBenchmark.percentile(fullText, p), unit: "ms", goal: nil, higherIsBetter: false,
                    spread: "p10–p90 \(String(format: "%.1f", IndexBenchmark.percentile(hybrid, 0.1)))–\(String(format: "%.1f", IndexBenchmark.percentile(hybrid, 0.9)))",
                    note: goal.map { "absolute goal ≤ \(Int($0)) ms: \(ours <= $0 ? "met" : "**missed**")" }))
            }
            rows.append(BenchmarkRow(metric: "of which embedding the query, p50 at \(size / 1_000)k notes", ours: IndexBenchmark.percentile(embedding, 0.5),
                                     reference: nil, unit: "ms", goal: nil, higherIsBetter: false, note: "the real model, one text"))
            try? FileManager.default.removeItem(at: file)
        }
        notesText.append("Latency: \(queries.count) two-word queries of the index section's vocabulary, each run full text only (`wordsSearch: .fullText`) then hybrid (BM25 and meaning fused, the query embedded by the real model, exact scan of every vector); the first search's loading of the vectors is not counted. Stand-in vectors: hash-seeded, the same cost as real ones.")
        return SectionReport(
            name: "vectors",
            title: "Vectors: building with embeddings, and hybrid search at 100k and 1M notes",
            reference: "the same index built and searched without vectors (full text only), same run",
            rows: rows, notes: notesText)
    }

    private struct Built {
        let index: SearchableIndex
        let seconds: Double
        let bytes: Int
    }

    /// Builds `notes` into a new index at `url`, timed, in the index section's batch; its size after a checkpoint.
    private static func build(_ notes: IndexBenchmark.NoteSequence, at url: URL, embedder: (any TextEmbedder)?) async throws -> Built {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let index = try SearchableIndex(url: url, timeZone: TimeZone(identifier: "UTC") ?? .current, embedder: embedder)
        let milliseconds = try await IndexBenchmark.milliseconds {
            try await IndexBenchmark.indexNotes(notes, into: index, effortKey: nil, clientState: "vectors")
            // words first, then the embedding pass: the build is done when both are
            if embedder != nil { try await index.embedPendingItems() }
        }
        _ = try await index.checkpoint()
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
        return Built(index: index, seconds: milliseconds / 1_000, bytes: bytes)
    }

    private static func twoWordQueries() -> [String] {
        var generator = IndexBenchmark.Generator(state: 91)
        return (0..<100).map { _ in
            "\(IndexBenchmark.vocabulary[100 + generator.below(900)]) \(IndexBenchmark.vocabulary[100 + generator.below(900)])"
        }
    }
}
