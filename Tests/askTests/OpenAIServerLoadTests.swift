import Foundation
import SearchIndex
import Testing

/// `ask serve` under load and faults (issue 49 §4), on loopback: eight clients of the real
/// `openai` library send 200 requests in all (Fixtures/openai_load.py; most force a call of a
/// client function, every eighth is a question the search answers) while raw sockets hang up
/// mid-stream, send malformed JSON and bodies over the bound, send a request a few bytes at a
/// time, and hold a connection whose head never ends. Every well-formed request must be
/// answered, each fault refused in OpenAI's shape or survived; the server's peak resident set
/// must stay within 10% of its peak after the first question (the model and its one context) and
/// its resident set within 10% from the first fifth of the run to its end; and the index it
/// served must afterwards hold every item and pass `ask index --check`.
@Suite(.serialized) struct OpenAIServerLoadTests {
    static let script = MCPServerTests.fixtures.appendingPathComponent("openai_load.py")
    static let clients = 8
    static let requests = 200
    static let maximumBodyBytes = 64 * 1024

    @Test func eightClientsAndMisbehavingOnesAreAllServedWithFlatMemoryAndAnIntactIndex() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: MCPServerTests.python.path),
                     "the openai Python client is not installed at \(MCPServerTests.python.path): run scripts/setup.sh")
        let ask = try AskProcess()
        let built = try await ask.runOffThePool(["index", "--corpus", MCPServerTests.corpus.path, "--index", "served", "--embedding-model", "none"])
        try #require(built.status == 0, "ask index failed: \(built.stderr)")
        let indexFile = IndexCheckTests.indexFile(ask, "served")
        let itemsBefore = try await SearchableIndex(url: indexFile).count()
        try #require(itemsBefore > 0)

        let key = "lantern-load-key"
        let server = try ServeProcess(ask, ["serve", "--index", "served", "--port", "0", "--api-key", key,
                                            "--parallel", String(Self.clients), "--queue", String(Self.clients),
                                            "--max-body-bytes", String(Self.maximumBodyBytes)] + AskProcess.modelArguments)
        let url = try #require(await server.listeningURL(), "ask serve did not start listening; stderr:\n\(server.stderr.suffix(3000))")
        var client = try AskProcess()
        client.executable = MCPServerTests.python
        let result = try await client.runOffThePool([Self.script.path, url, key, String(server.process.processIdentifier),
                                     String(Self.maximumBodyBytes), String(Self.requests), String(Self.clients)])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("FAIL ") {
            Issue.record("\(failure.dropFirst(5))\nserver stderr ends:\n\(server.stderr.suffix(2000))")
        }
        for figure in lines where figure.hasPrefix("FIGURE ") { print("ask serve under load: \(figure.dropFirst(7))") }
        let passed = Set(lines.filter { $0.hasPrefix("PASS ") }.map { String($0.dropFirst(5)) })
        let expected: Set = ["every request answered", "hang up mid-stream", "malformed JSON", "oversized body", "slow client", "memory flat"]
        #expect(expected.subtracting(passed).isEmpty,
                "checks that did not pass: \(expected.subtracting(passed).sorted()); client stderr: \(result.stderr.suffix(3000))")
        #expect(result.status == 0, "the client exited with \(result.status); stdout:\n\(result.stdout)\nstderr:\n\(result.stderr.suffix(3000))")
        #expect(server.process.isRunning, "ask serve exited during the load; stderr:\n\(server.stderr.suffix(3000))")
        server.stop()

        let check = try await ask.runOffThePool(["index", "--check", "served"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(try await SearchableIndex(url: indexFile).count() == itemsBefore)
    }
}
