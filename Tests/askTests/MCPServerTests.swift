import Foundation
import Testing

/// `ask mcp` driven by the real `mcp` Python SDK (Fixtures/mcp_client.py, in the virtual
/// environment scripts/setup.sh makes), in both eras of the protocol: the 2025-11-25 handshake
/// and the stateless 2026-07-28 (server/discover, `_meta` on every request). In each: tools/list,
/// a search, a fetch, a bad argument, an unknown id and tool, a call cancelled while in flight,
/// and the raw lines and protocol errors no SDK sends. No model is loaded; every check is about
/// what the server returns.
@Suite(.serialized) struct MCPServerTests {
    static let fixtures = AskProcess.repository.appendingPathComponent("Tests/askTests/Fixtures")
    /// Where scripts/setup.sh installs the client (`.build-*` folders are not committed).
    static let python = AskProcess.repository.appendingPathComponent(".build-mcp-client/bin/python")
    static let corpus = AskProcess.repository.appendingPathComponent("Sources/Evaluations/Samples/trails.jsonl")

    @Test func theRealMCPClientListsSearchesFetchesAndCancelsInBothEras() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python.path),
                     "the mcp Python client is not installed at \(Self.python.path): run scripts/setup.sh")
        var client = try AskProcess()
        client.executable = Self.python
        let result = try await client.runOffThePool([Self.fixtures.appendingPathComponent("mcp_client.py").path, AskProcess.binary.path, Self.corpus.path])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("FAIL ") {
            Issue.record("\(failure.dropFirst(5))")
        }
        let passed = Set(lines.filter { $0.hasPrefix("PASS ") }.map { String($0.dropFirst(5)) })
        let sdk = ["connect", "cancelled call", "tools/list", "search", "fetch", "bad argument", "unknown id", "unknown tool"]
        let expected = Set(sdk.map { "2025-11-25: \($0)" } + sdk.map { "2026-07-28: \($0)" } + [
            "2025-11-25: ping after everything", "2025-11-25: raw: not JSON and a batch", "2025-11-25: raw: tools/list before initialize",
            "2025-11-25: raw: an unknown revision gets the newest handshake one", "2025-11-25: raw: unknown method",
            "2025-11-25: raw: tools/call without a name", "2025-11-25: raw: arguments not an object", "2025-11-25: raw: ping with a string id",
            "2025-11-25: raw: results without resultType", "2025-11-25: raw: exits 0 when stdin closes",
            "2026-07-28: raw: server/discover", "2026-07-28: raw: tools/list", "2026-07-28: raw: tools/call",
            "2026-07-28: raw: an unsupported revision", "2026-07-28: raw: no client capabilities", "2026-07-28: raw: no revision",
            "2026-07-28: raw: ping was removed", "2026-07-28: raw: initialize beside it", "2026-07-28: raw: exits 0 when stdin closes",
        ])
        #expect(expected.subtracting(passed).isEmpty, "checks that did not pass: \(expected.subtracting(passed).sorted()); stderr: \(result.stderr.suffix(3000))")
        #expect(result.status == 0, "the client exited with \(result.status); stdout:\n\(result.stdout)\nstderr:\n\(result.stderr.suffix(3000))")
    }
}
