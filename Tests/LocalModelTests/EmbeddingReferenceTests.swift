import Foundation
import Testing
import LocalModel

/// Lantern's vectors against llama.cpp's own: `llama-server --embeddings` on the same GGUF.
@Suite("Embeddings agree with llama-server", .serialized)
struct EmbeddingReferenceTests {
    @Test("each passage's vector agrees with llama-server's (cosine >= 0.999)")
    func agreesWithLlamaServer() async throws {
        let model = try EmbeddingTestModel.shared()
        let server = try await EmbeddingReferenceServer(model: EmbeddingTestModel.url)
        defer { server.stop() }
        let ours = try await model.embed(EmbeddingTestModel.passages)
        for (index, passage) in EmbeddingTestModel.passages.enumerated() {
            let reference = try await server.embedding(passage)
            #expect(reference.count == model.dimension)
            let similarity = EmbeddingTestModel.cosine(ours[index], reference)
            #expect(similarity >= 0.999, "passage \(index): cosine \(similarity) with llama-server's vector")
        }
        // and the comparison can tell vectors apart: another passage's is far from this one's
        let other = try await server.embedding(EmbeddingTestModel.passages[1])
        #expect(EmbeddingTestModel.cosine(ours[0], other) < 0.9)
    }
}
