import Foundation
import Testing

/// `ask index` gives an index vectors with the installed embedding model without a flag, leaves
/// them out with `--embedding-model none`, and gives them back to the items that have none on
/// the next build (the real binary, the real all-MiniLM-L6-v2 file).
@Suite(.serialized) struct IndexVectorsTests {
    static func report(_ result: AskProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout) \(result.stderr)")
    }

    @Test func vectorsAreOnByDefaultOffWithNoneAndAddedToItemsThatLackThem() throws {
        let ask = try AskProcess()
        let corpus = try ask.dataHome.write("""
            {"id": "a", "attributes": {"title": "Bedroom window", "textContent": "Damp patch under the sill after the storm."}}
            {"id": "b", "attributes": {"title": "Tax return", "textContent": "Filed the annual return and paid the balance."}}
            """, to: "notes.jsonl")
        let plain = try ask.run(["index", "--corpus", corpus.path, "--embedding-model", "none", "--json"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try Self.report(plain)["vectors"] == nil)

        // the same corpus, unchanged, gains vectors on the next build: every item is embedded
        let embedded = try ask.run(["index", "--corpus", corpus.path, "--json"])
        #expect(embedded.status == 0, "\(embedded.stderr)")
        let report = try Self.report(embedded)
        #expect((report["vectors"] as? String)?.hasPrefix("all-MiniLM-L6-v2 (384 dimensions, sha256 ") == true, "\(report)")
        #expect((report["summary"] as? String)?.contains("embedded 2 items") == true, "\(report)")

        // nothing left to embed
        let again = try ask.run(["index", "--corpus", corpus.path, "--json"])
        #expect(try Self.report(again)["summary"] as? String == "already up to date")

        // an embedding model that is not there is a clear error
        let models = try ask.run(["index", "--corpus", corpus.path, "--embedding-model", "no-such-model.gguf"])
        #expect(models.status != 0)
        #expect(models.stderr.contains("no model file 'no-such-model.gguf'"), "\(models.stderr)")
    }
}
