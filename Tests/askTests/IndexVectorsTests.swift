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
        // what embedding cost: every piece the model read is at least [CLS], a word and [SEP]
        let pieces = try #require(report["embeddedPieces"] as? Int, "\(report)")
        let tokens = try #require(report["embeddedTokens"] as? Int, "\(report)")
        #expect(pieces >= 2)
        #expect(tokens >= 3 * pieces && tokens <= 512 * pieces, "\(tokens) tokens for \(pieces) pieces")

        // nothing left to embed
        let again = try ask.run(["index", "--corpus", corpus.path, "--json"])
        #expect(try Self.report(again)["summary"] as? String == "already up to date")

        // an embedding model that is not there is a clear error
        let models = try ask.run(["index", "--corpus", corpus.path, "--embedding-model", "no-such-model.gguf"])
        #expect(models.status != 0)
        #expect(models.stderr.contains("no model file 'no-such-model.gguf'"), "\(models.stderr)")
    }

    /// kill -9 while `ask index` embeds: the index opens, `ask index --check` passes and says how
    /// many items wait, and the next build embeds only those.
    @Test func aBuildKilledWhileEmbeddingResumesWithTheItemsLeft() throws {
        let ask = try AskProcess()
        let count = 400
        for number in 1...count {
            try ask.dataHome.write("Note \(number) of the garden log. The shed roof needed \(number) new tiles after the storm. "
                                   + "We planted \(number % 17) rows of beans and \(number % 11) of peas that week.\n", to: "notes/note-\(number).txt")
        }
        let notes = ask.dataHome.url.appendingPathComponent("notes")
        let build = ask.process(["index", "--folder", notes.path, "--index", "killed"])
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        try build.run()
        func coverage() throws -> (status: Int32, vectors: [String: Any]?) {
            let check = try ask.run(["index", "--check", "killed", "--json"])
            let report = try? JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
            return (check.status, report?["vectors"] as? [String: Any])
        }
        // kill it once some vectors are committed
        var embedded = 0
        while build.isRunning, embedded == 0 {
            Thread.sleep(forTimeInterval: 0.2)
            embedded = (try? coverage().vectors?["embeddedItemCount"] as? Int) ?? 0
        }
        #expect(build.isRunning, "the build ended before it could be killed")
        kill(build.processIdentifier, SIGKILL)
        build.waitUntilExit()

        let (status, vectors) = try coverage()
        #expect(status == 0)
        let done = try #require(vectors?["embeddedItemCount"] as? Int)
        #expect(done > 0 && done < count, "\(String(describing: vectors))")
        #expect(vectors?["pendingItemCount"] as? Int == count - done)

        let resumed = try ask.run(["index", "--folder", notes.path, "--index", "killed", "--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect((try Self.report(resumed)["summary"] as? String)?.contains("embedded \(count - done) items") == true, "\(resumed.stdout)")
        #expect(try coverage().vectors?["pendingItemCount"] as? Int == 0)
    }
}
