import Foundation
import Testing

/// `ask serve` driven by the real `openai` Python library (Fixtures/openai_client.py, in the
/// virtual environment scripts/setup.sh makes): the test starts the built `ask serve` with the
/// default model on a free loopback port, with an API key, a body bound, two parallel sessions
/// and a queue of one, and the client lists the models, asks once whole and once streamed, is
/// refused for a bad request, a wrong key and an oversized body; calls its own function when
/// tool_choice names it (whole and streamed, arguments valid under its schema) or requires one,
/// goes on from the function's result, has bad tools and tool messages refused by field; asks
/// after earlier turns, and too many of them for the window (a 400 naming the turn); gets
/// finish_reason length from a one-token cap; asks from three clients at once (answers do not
/// cross) and from six (the ones past the queue get 429). Every check is about what the server
/// returns, never what the model says.
@Suite(.serialized) struct OpenAIServerTests {
    static let client = MCPServerTests.fixtures.appendingPathComponent("openai_client.py")
    static let key = "lantern-test-key"
    /// Room for the conversation that overflows the window (about 110 KB of earlier turn).
    static let maximumBodyBytes = 256 * 1024

    @Test func theRealOpenAIClientChatsCallsItsFunctionsConversesConcurrentlyAndIsRefusedInOpenAIsShape() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: MCPServerTests.python.path),
                     "the openai Python client is not installed at \(MCPServerTests.python.path): run scripts/setup.sh")
        let ask = try AskProcess()
        let server = try ServeProcess(ask, ["serve", "--corpus", MCPServerTests.corpus.path, "--port", "0", "--api-key", Self.key,
                                            "--max-body-bytes", String(Self.maximumBodyBytes), "--parallel", "2", "--queue", "1"] + AskProcess.modelArguments)
        let url = try #require(await server.listeningURL(), "ask serve did not start listening; stderr:\n\(server.stderr.suffix(3000))")

        var client = try AskProcess()
        client.executable = MCPServerTests.python
        let result = try await client.runOffThePool([Self.client.path, url, Self.key, MCPServerTests.corpus.path, String(Self.maximumBodyBytes)])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("FAIL ") {
            Issue.record("\(failure.dropFirst(5))")
        }
        let passed = Set(lines.filter { $0.hasPrefix("PASS ") }.map { String($0.dropFirst(5)) })
        let expected: Set = ["models.list", "chat completion", "streamed chat completion", "bad request", "wrong key", "oversized body",
                             "client tool named", "client tool named streamed", "client tool required", "tool result follow-up",
                             "tool refusals", "conversation", "conversation overflow", "finish length", "concurrent clients", "queue full"]
        #expect(expected.subtracting(passed).isEmpty,
                "checks that did not pass: \(expected.subtracting(passed).sorted()); client stderr: \(result.stderr.suffix(3000)); server stderr: \(server.stderr.suffix(3000))")
        #expect(result.status == 0, "the client exited with \(result.status); stdout:\n\(result.stdout)\nstderr:\n\(result.stderr.suffix(3000))")
    }

    @Test func anAddressBeyondLoopbackIsRefusedWithoutAKeyBeforeAnythingLoads() throws {
        var ask = try AskProcess()
        ask.environment["LANTERN_API_KEY"] = ""
        let result = try ask.run(["serve", "--host", "0.0.0.0", "--model", "no-such-model.gguf"])
        #expect(result.status == 2, "exit \(result.status); stderr: \(result.stderr)")
        #expect(result.stderr.contains("--api-key"), "stderr: \(result.stderr)")
    }
}
