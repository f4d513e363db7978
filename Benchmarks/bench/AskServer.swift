import Foundation
import LocalModel
import RemoteModel

/// The release `ask serve` as a user starts it, a child process for the length of a section,
/// with its own XDG data and cache folders so it neither reads nor writes the user's indexes
/// and prompt cache; its URL is read from the "listening on" line it logs once the index is
/// built and the model loaded.
final class AskServer: Sendable {
    /// How long building the index and loading the model may take.
    static let startupTimeout: Duration = .seconds(300)

    /// The API's root, `http://127.0.0.1:PORT/v1`.
    let url: URL
    let server: ServerProcess

    /// Starts `ask serve` with `arguments` (after `serve`; `--port 0` is added) and waits for it
    /// to listen.
    init(_ arguments: [String], folder: URL) async throws {
        let home = folder.appendingPathComponent("ask-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        server = try ServerProcess(try BenchmarkEnvironment.askBinary(), ["serve", "--port", "0"] + arguments,
                                   environment: ["XDG_DATA_HOME": home.appendingPathComponent("data").path,
                                                 "XDG_CACHE_HOME": home.appendingPathComponent("cache").path],
                                   logURL: home.appendingPathComponent("serve.log"), installHint: "build it with swift build -c release --product ask")
        let deadline = ContinuousClock.now + Self.startupTimeout
        while ContinuousClock.now < deadline {
            if let exited = server.exitFailure(during: "its start") { throw exited }
            let log = server.log
            if let start = log.range(of: "listening on ")?.upperBound, let end = log[start...].firstIndex(of: "\n"),
               let url = URL(string: String(log[start..<end])) {
                self.url = url
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        server.stop()
        throw BenchmarkFailure("ask serve did not listen within \(Self.startupTimeout); its log ends: \(server.logTail)")
    }

    /// What one chat completion cost: the usage the server reported.
    struct Completion: Sendable {
        var promptTokens: Int
        var completionTokens: Int
    }

    /// Asks `question` as an OpenAI client does (`model`, one user message, `max_tokens`), not
    /// streamed; throws unless the server answers 200 with a completion.
    func ask(_ question: String, model: String, maximumTokens: Int, timeout: Double) async throws -> Completion {
        let body: JSONValue = ["model": .string(model), "messages": [["role": "user", "content": .string(question)]],
                               "max_tokens": .int(maximumTokens)]
        let response: (status: Int, body: Data)
        do {
            response = try await HTTPClient.send(.post(url.appendingPathComponent("chat/completions"), json: Data(body.jsonString.utf8)),
                                                 timeout: .seconds(timeout))
        } catch {
            throw server.exitFailure(during: "a chat completion") ?? BenchmarkFailure("a chat completion from ask serve failed: \(error)")
        }
        let text = String(decoding: response.body, as: UTF8.self)
        guard response.status == 200, let json = try? JSONValue(parsing: text), json["choices"]?[0]?["message"] != nil else {
            throw BenchmarkFailure("ask serve answered \(response.status): \(text.prefix(300))")
        }
        return Completion(promptTokens: json["usage"]?["prompt_tokens"]?.intValue ?? 0,
                          completionTokens: json["usage"]?["completion_tokens"]?.intValue ?? 0)
    }
}
