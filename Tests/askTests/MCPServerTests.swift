import Foundation
import Testing

/// `ask mcp` driven by the real `mcp` Python SDK (Fixtures/mcp_client.py, in the virtual
/// environment scripts/setup.sh makes): the handshake, tools/list, a search, a fetch, a bad
/// argument, an unknown id and tool, a call cancelled while in flight, and the raw protocol
/// errors no SDK sends. No model is loaded; every check is about what the server returns.
@Suite(.serialized) struct MCPServerTests {
    static let fixtures = AskProcess.repository.appendingPathComponent("Tests/askTests/Fixtures")
    /// Where scripts/setup.sh installs the client (`.build-*` folders are not committed).
    static let python = AskProcess.repository.appendingPathComponent(".build-mcp-client/bin/python")
    static let corpus = AskProcess.repository.appendingPathComponent("Sources/Evaluations/Samples/trails.jsonl")

    @Test func theRealMCPClientListsSearchesFetchesAndCancels() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python.path),
                     "the mcp Python client is not installed at \(Self.python.path): run scripts/setup.sh")
        var client = try AskProcess()
        client.executable = Self.python
        let result = try client.run([Self.fixtures.appendingPathComponent("mcp_client.py").path, AskProcess.binary.path, Self.corpus.path])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("FAIL ") {
            Issue.record("\(failure.dropFirst(5))")
        }
        let passed = Set(lines.filter { $0.hasPrefix("PASS ") }.map { String($0.dropFirst(5)) })
        let expected: Set = ["initialize", "cancelled call", "tools/list", "search", "fetch", "bad argument", "unknown id", "unknown tool",
                             "ping after everything", "raw: not JSON and a batch", "raw: tools/list before initialize",
                             "raw: an unknown revision gets the newest", "raw: unknown method", "raw: tools/call without a name",
                             "raw: arguments not an object", "raw: ping with a string id", "raw: exits 0 when stdin closes"]
        #expect(expected.subtracting(passed).isEmpty, "checks that did not pass: \(expected.subtracting(passed).sorted()); stderr: \(result.stderr.suffix(3000))")
        #expect(result.status == 0, "the client exited with \(result.status); stdout:\n\(result.stdout)\nstderr:\n\(result.stderr.suffix(3000))")
    }
}
