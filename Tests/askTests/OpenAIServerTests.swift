import Foundation
import Testing

/// `ask serve` driven by the real `openai` Python library (Fixtures/openai_client.py, in the
/// virtual environment scripts/setup.sh makes): the test starts the built `ask serve` with the
/// default model on a free loopback port, with an API key and a small body bound, and the
/// client lists the models, asks once whole and once streamed, and is refused for a bad
/// request, a wrong key and an oversized body. Every check is about what the server returns,
/// never what the model says.
@Suite(.serialized) struct OpenAIServerTests {
    static let client = MCPServerTests.fixtures.appendingPathComponent("openai_client.py")
    static let key = "lantern-test-key"
    static let maximumBodyBytes = 16 * 1024

    @Test func theRealOpenAIClientListsModelsChatsStreamedAndNotAndIsRefusedInOpenAIsShape() throws {
        try #require(FileManager.default.isExecutableFile(atPath: MCPServerTests.python.path),
                     "the openai Python client is not installed at \(MCPServerTests.python.path): run scripts/setup.sh")
        let ask = try AskProcess()
        let server = ask.process(["serve", "--corpus", MCPServerTests.corpus.path, "--port", "0", "--api-key", Self.key,
                                  "--max-body-bytes", String(Self.maximumBodyBytes)] + AskProcess.modelArguments)
        let errors = Pipe()
        server.standardError = errors
        server.standardOutput = FileHandle.nullDevice
        server.standardInput = FileHandle.nullDevice
        let log = OutputCollector()
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        Thread.detachNewThread {
            while true {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { break }
                log.append(data, isError: true)
            }
        }
        let url = try #require(Self.listeningURL(server, log), "ask serve did not start listening; stderr:\n\(log.texts.1.suffix(3000))")

        var client = try AskProcess()
        client.executable = MCPServerTests.python
        let result = try client.run([Self.client.path, url, Self.key, MCPServerTests.corpus.path, String(Self.maximumBodyBytes)])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for failure in lines where failure.hasPrefix("FAIL ") {
            Issue.record("\(failure.dropFirst(5))")
        }
        let passed = Set(lines.filter { $0.hasPrefix("PASS ") }.map { String($0.dropFirst(5)) })
        let expected: Set = ["models.list", "chat completion", "streamed chat completion", "bad request", "wrong key", "oversized body"]
        #expect(expected.subtracting(passed).isEmpty,
                "checks that did not pass: \(expected.subtracting(passed).sorted()); client stderr: \(result.stderr.suffix(3000)); server stderr: \(log.texts.1.suffix(3000))")
        #expect(result.status == 0, "the client exited with \(result.status); stdout:\n\(result.stdout)\nstderr:\n\(result.stderr.suffix(3000))")
    }

    @Test func anAddressBeyondLoopbackIsRefusedWithoutAKeyBeforeAnythingLoads() throws {
        var ask = try AskProcess()
        ask.environment["LANTERN_API_KEY"] = ""
        let result = try ask.run(["serve", "--host", "0.0.0.0", "--model", "no-such-model.gguf"])
        #expect(result.status == 2, "exit \(result.status); stderr: \(result.stderr)")
        #expect(result.stderr.contains("--api-key"), "stderr: \(result.stderr)")
    }

    /// The URL from the server's "listening on" line, or nil when it exited or took over ten
    /// minutes (building the corpus's index and loading the model come first).
    private static func listeningURL(_ server: Process, _ log: OutputCollector) -> String? {
        let deadline = Date().addingTimeInterval(600)
        while server.isRunning && Date() < deadline {
            let text = log.texts.1
            if let start = text.range(of: "listening on ")?.upperBound, let end = text[start...].firstIndex(of: "\n") {
                return String(text[start..<end])
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }
}
