import Foundation
import Testing
import TestModelSupport

/// `ask --server`: a question answered by the model a real llama-server runs (started here on
/// the test model), the session, tools and budget in `ask`. As in `AskModelTests`, what is
/// checked is the shape, the retrieval and the exit codes, never what the model writes.
@Suite(.serialized) struct AskServerTests {
    @Test func aQuestionRunsThroughTheServersModel() async throws {
        let server = try await LlamaServerProcess(model: TestModel.url, context: 4096, threads: 2)
        defer { server.stop() }
        let ask = try AskProcess()
        let result = try ask.run(["--server", server.url.absoluteString, "--corpus", MCPServerTests.corpus.path, "--json", "--max-tokens", "120",
                                  "Which trails in California have water features?"])
        if AskModelTests.endedAtTheRoundLimit(result) {
            #expect(result.stdout.isEmpty, "no report after an error")
            return
        }
        #expect(result.status == 0, "\(result.stderr)\nllama-server's log ends:\n\(server.logTail)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(object["answer"] is String)
        let trace = try #require(object["trace"] as? [[String: Any]])
        AskModelTests.expectTheFirstStepIsACall(trace)
        let searches = trace.filter { $0["tool"] as? String == "spotlight_search" }
        let sources = try #require(object["sources"] as? [[String: Any]])
        if searches.contains(where: { ($0["results"] as? Int ?? 0) > 0 }) { #expect(!sources.isEmpty, "results but no sources") }
        // the server's counts reach the report: it decoded the prompt and generated
        let tokens = try #require(object["tokens"] as? [String: Int])
        #expect((tokens["prompt"] ?? 0) > 0 && (tokens["generated"] ?? 0) > 0, "\(tokens)")
    }

    @Test func aServerThatIsNotThereOrFlagsThatDoNotFitAreErrors() throws {
        let ask = try AskProcess()
        // nothing listens on a port this process held and let go: exit 1, the typed error, before any index is built
        let port = try LoopbackPort.free()
        let unreachable = try ask.run(["--server", "http://127.0.0.1:\(port)", "--corpus", MCPServerTests.corpus.path, "Which trails are in Utah?"])
        #expect(unreachable.status == 1 && unreachable.stderr.contains("cannot reach the model server at http://127.0.0.1:\(port)"), "\(unreachable.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ask.dataHome.url.appendingPathComponent("lantern/indexes").path), "an index was built first")
        // usage errors (exit 2) before anything is opened
        for (arguments, named) in [(["--api-key", "k"], "--api-key"), (["--server-model", "m"], "--server-model"),
                                   (["--server", "http://127.0.0.1:\(port)", "--threads", "1"], "--threads"),
                                   (["--server", "http://127.0.0.1:\(port)", "--gpu-layers", "1"], "--gpu-layers"),
                                   (["--server", "ftp://example.org"], "--server")] {
            let result = try ask.run(arguments + ["Which trails are in Utah?"])
            #expect(result.status == 2 && result.stderr.contains(named), "\(arguments): exit \(result.status), \(result.stderr)")
        }
    }
}
