import Foundation
import Testing
@testable import LocalModel
import TestModelSupport

/// The real embedding model (TestEmbeddingModel: models.lock's default, installed by
/// scripts/setup.sh), loaded once for all tests, and its models.lock entry.
enum EmbeddingTestModel {
    static let repository = TestEmbeddingModel.repository
    static let url = TestEmbeddingModel.url
    static func lockEntry() throws -> TestEmbeddingModel.LockEntry { try TestEmbeddingModel.lockEntry() }

    private static let loaded = Result { () throws(LocalModelError) -> EmbeddingModel in
        try EmbeddingModel(contentsOf: url, configuration: .init(threads: 2))
    }

    static func shared() throws -> EmbeddingModel { try loaded.get() }

    /// The cosine above which two vectors are the same text's: a q8_0 model's kernels differ by
    /// batch shape, which moves a vector by about 1e-4 (f16 by less than 1e-5), while two
    /// different passages stay below 0.9.
    static let sameText: Float = 0.999

    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        let dot = zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
        let norms = a.reduce(0) { $0 + $1 * $1 }.squareRoot() * b.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return dot / norms
    }

    /// Passages of different lengths and kinds (prose, a list, numbers, accents, a single word).
    static let passages = [
        "The roofer came on Tuesday and found a damp patch under the bedroom window, where the flashing had come loose.",
        "Shopping: eggs, flour, two lemons, baking paper.",
        "Invoice 2024-117: boiler service, 1 hour labour at 65 EUR, parts 12.40 EUR, total 77.40 EUR including VAT.",
        "Crème brûlée needs a blowtorch — or a very hot grill, if you are patient.",
        "weather",
        String(repeating: "The trail climbs steadily through beech woods before opening onto the ridge, where the wind picks up. ", count: 12),
    ]
}

@Suite("Embedding model", .serialized)
struct EmbeddingModelTests {
    @Test("loads the embedding GGUF and reports what it is")
    func loads() throws {
        let model = try EmbeddingTestModel.shared()
        #expect(model.info.architecture == "bert")
        #expect(model.pooling == .mean)
        let entry = try EmbeddingTestModel.lockEntry()
        #expect(model.dimension == entry.dimension)
        #expect(model.maximumTokensPerText == entry.trainedContext)
    }

    @Test("every vector has the model's dimension and unit length")
    func unitVectors() async throws {
        let model = try EmbeddingTestModel.shared()
        let vectors = try await model.embed(EmbeddingTestModel.passages + [""])
        #expect(vectors.count == EmbeddingTestModel.passages.count + 1)
        for vector in vectors {
            #expect(vector.count == model.dimension)
            let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            #expect(abs(length - 1) < 1e-4)
        }
        #expect(try await model.embed([String]()).isEmpty)
    }

    @Test("a batch gives each text the vector it gets alone, in order")
    func batchEqualsOneByOne() async throws {
        let model = try EmbeddingTestModel.shared()
        let together = try await model.embed(EmbeddingTestModel.passages)
        for (index, passage) in EmbeddingTestModel.passages.enumerated() {
            let alone = try await model.embed(passage)
            let similarity = EmbeddingTestModel.cosine(together[index], alone)
            #expect(similarity > EmbeddingTestModel.sameText, "passage \(index): cosine \(similarity) between its batched and its own vector")
        }
        // the batch really was shared: different texts do not give the same vector
        #expect(EmbeddingTestModel.cosine(together[0], together[1]) < 0.9)
    }

    @Test("texts share forward passes within the batch limits, and each still gets its own vector")
    func smallBatches() async throws {
        // at most 2 texts and 64 tokens per pass: the passages go through in many passes
        let small = try EmbeddingModel(contentsOf: EmbeddingTestModel.url, configuration: .init(threads: 2, batchTokens: 64, maximumTextsPerBatch: 2))
        #expect(small.maximumTokensPerText == 64)
        let shared = try EmbeddingTestModel.shared()
        let texts = Array(EmbeddingTestModel.passages.prefix(5))
        let vectors = try await small.embeddings(for: texts)
        for (index, text) in texts.enumerated() {
            let expected = try await shared.embed(text)
            #expect(vectors[index].tokenCount <= 64)
            if !vectors[index].isTruncated {
                #expect(EmbeddingTestModel.cosine(vectors[index].vector, expected) > EmbeddingTestModel.sameText, "passage \(index)")
            }
        }
    }

    @Test("a text longer than the model reads is cut at a token boundary, keeps its framing, and says so")
    func truncation() async throws {
        let model = try EmbeddingTestModel.shared()
        let long = String(repeating: "The boiler was serviced in March and the pressure valve replaced. ", count: 80)
        let content = try model.tokenizer.tokenize(long, addSpecial: false, parseSpecial: false).count
        let framed = try model.tokenizer.tokenize(long, addSpecial: true, parseSpecial: false)
        let framingCount = framed.count - content
        #expect(content > model.maximumTokensPerText)

        let embedding = try await model.embeddings(for: [long])[0]
        #expect(embedding.isTruncated)
        #expect(embedding.tokenCount == model.maximumTokensPerText)
        #expect(embedding.droppedTokenCount == content - (model.maximumTokensPerText - framingCount))
        // only the beginning counts: what follows the cut changes nothing
        let longer = try await model.embed(long + " Then the whole house was rewired, room by room.")
        #expect(EmbeddingTestModel.cosine(embedding.vector, longer) > EmbeddingTestModel.sameText)

        let short = try await model.embeddings(for: ["The boiler was serviced in March."])[0]
        #expect(!short.isTruncated)
        #expect(short.droppedTokenCount == 0)
    }

    @Test("markup in a text is read as plain text, not as control tokens")
    func markupIsText() async throws {
        let model = try EmbeddingTestModel.shared()
        let embedding = try await model.embeddings(for: ["[SEP] [CLS]"])[0]
        let plain = try model.tokenizer.tokenize("[SEP] [CLS]", addSpecial: true, parseSpecial: false)
        let parsed = try model.tokenizer.tokenize("[SEP] [CLS]", addSpecial: true, parseSpecial: true)
        #expect(plain != parsed)
        #expect(embedding.tokenCount == plain.count)
    }

    @Test("the identity is the model's name, dimension and the sha256 models.lock pins for its file")
    func identity() throws {
        let model = try EmbeddingTestModel.shared()
        let identity = try model.identity()
        let entry = try EmbeddingTestModel.lockEntry()
        #expect(identity.name == entry.source.modelName)
        #expect(identity.dimension == model.dimension)
        #expect(identity.sha256 == entry.sha256)
        #expect(try model.identity() == identity)
        // read from the file without loading it: the same identity
        #expect(try EmbeddingModelIdentity(fileAt: model.url) == identity)
    }

    @Test("SHA-256 matches the standard's test vectors")
    func sha256Vectors() {
        #expect(SHA256Digest(Data()).description == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest(Data("abc".utf8)).description == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256Digest(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).description
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256Digest(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)).description
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("a generation model given as an embedder is refused, saying what to do")
    func generationModelRefused() throws {
        #expect {
            try EmbeddingModel(contentsOf: TestModel.url)
        } throws: { error in
            guard let error = error as? LocalModelError, case .notAnEmbeddingModel(let path, _) = error else { return false }
            return path == TestModel.url.path && error.description.contains("LocalModel") && error.description.contains("scripts/setup.sh")
        }
    }

    @Test("an embedding model given for generation is refused, saying what to do")
    func embeddingModelCannotGenerate() throws {
        for load in [{ try LocalModel(contentsOf: EmbeddingTestModel.url) }, { try LocalModel.vocabularyOnly(contentsOf: EmbeddingTestModel.url) }] {
            #expect {
                try load()
            } throws: { error in
                guard let error = error as? LocalModelError, case .embeddingModelCannotGenerate(_, let architecture, let pooling) = error else { return false }
                return architecture == "bert" && pooling == "mean" && error.description.contains("EmbeddingModel(contentsOf:)")
            }
        }
    }

    @Test("the purpose of a file is read from its metadata")
    func purpose() {
        #expect(ModelPurpose(metadata: ["general.architecture": "llama"]) == .generation)
        #expect(ModelPurpose(metadata: ["general.architecture": "bert", "bert.pooling_type": "2"]) == .embedding(pooling: .cls))
        #expect(ModelPurpose(metadata: ["general.architecture": "qwen3", "qwen3.pooling_type": "3"]) == .embedding(pooling: .lastToken))
        #expect(ModelPurpose(metadata: ["general.architecture": "bert", "bert.pooling_type": "4"]) != .generation)
        #expect(ModelPurpose(metadata: ["general.architecture": "bert", "bert.attention.causal": "false"]) != .generation)
        #expect(ModelPurpose(metadata: ["general.architecture": "llama", "llama.pooling_type": "0"]) == .generation)
    }

    @Test("a cancelled task stops with .cancelled")
    func cancellation() async throws {
        let model = try EmbeddingTestModel.shared()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await model.embed(EmbeddingTestModel.passages)
        }
        await #expect(throws: LocalModelError.cancelled) { try await task.value }
    }

    @Test("calls from several tasks at once each get their own texts' vectors")
    func concurrentCalls() async throws {
        let model = try EmbeddingTestModel.shared()
        let expected = try await model.embed(EmbeddingTestModel.passages)
        let results = try await withThrowingTaskGroup(of: (Int, [Float]).self) { group in
            for (index, passage) in EmbeddingTestModel.passages.enumerated() {
                group.addTask { (index, try await model.embed(passage)) }
            }
            return try await group.reduce(into: [Int: [Float]]()) { $0[$1.0] = $1.1 }
        }
        for index in expected.indices {
            #expect(EmbeddingTestModel.cosine(results[index] ?? [], expected[index]) > EmbeddingTestModel.sameText, "passage \(index)")
        }
    }
}
