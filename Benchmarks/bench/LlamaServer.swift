import Foundation
import LocalModel
import RemoteModel

/// Debian's `llama-server`, started on 127.0.0.1 for the length of a benchmark section: the
/// peer a user would pick instead of an in-process engine, driven through its OpenAI-compatible
/// chat endpoint.
///
/// Every wait has a deadline, so a server that does not start, or a request it does not
/// answer, fails the section with a message (and the server's log) instead of hanging it.
final class LlamaServer: Sendable {
    /// How long loading the model may take before /health answers 200.
    static let startupTimeout: Duration = .seconds(120)

    let port: Int
    /// `http://127.0.0.1:PORT` and `path` after it (a loopback address and a port always make a URL).
    func url(_ path: String = "") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }
    private let server: ServerProcess
    /// The server's stdout and stderr, quoted in errors.
    var logURL: URL { server.logURL }
    var logTail: String { server.logTail }

    /// Starts the server and waits until it answers /health. `parallel` is its slot count
    /// (`-np`); `extraArguments` follow the others (`--embeddings` and batch sizes, for one).
    init(model: URL, threads: Int, context: Int, parallel: Int = 1, chatTemplateFile: URL? = nil, extraArguments: [String] = [],
         logDirectory: URL) async throws {
        port = Int.random(in: 20000..<40000)
        var arguments = ["-m", model.path, "--host", "127.0.0.1", "--port", String(port), "-t", String(threads),
                         "-c", String(context), "-np", String(parallel), "--jinja", "--no-webui"]
        if let chatTemplateFile { arguments += ["--chat-template-file", chatTemplateFile.path] }
        arguments += extraArguments
        server = try ServerProcess(URL(fileURLWithPath: "/usr/bin/llama-server"), arguments,
                                   logURL: logDirectory.appendingPathComponent("llama-server-\(port).log"),
                                   installHint: "install llama.cpp-tools with scripts/setup.sh")
        let deadline = ContinuousClock.now + Self.startupTimeout
        while ContinuousClock.now < deadline {
            if let exited = server.exitFailure(during: "its start") { throw exited }
            if let health = try? await HTTPClient.send(.get(url("/health")), timeout: .seconds(2)), health.status == 200 {
                return
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        server.stop()
        throw BenchmarkFailure("llama-server did not answer /health within \(Self.startupTimeout) on port \(port); its log ends: \(logTail)")
    }

    /// Asks the server to quit (`ServerProcess.stop`), so a benchmark never hangs on it or leaves it running.
    func stop() { server.stop() }

    /// Peak resident memory of the server so far (VmHWM), in bytes.
    var peakResidentBytes: Int? { server.peakResidentBytes }

    /// One chat completion: what the model wrote, the calls it made, and the tokens it cost.
    struct Reply: Sendable {
        var content: String
        var toolCalls: [(id: String, name: String, arguments: String)]
        var promptTokens: Int
        /// Of `promptTokens`, those the server found in its prompt cache.
        var cachedTokens: Int
        var completionTokens: Int
        /// "stop", "length" (the max_tokens cap) or "tool_calls".
        var finishReason: String
        var assistantMessage: JSONValue
        /// The server's own `timings`: prompt processing (to the first sampled token) and
        /// generation after it, in milliseconds; nil when the answer has none.
        var promptMilliseconds: Double?
        var generationMilliseconds: Double?
        /// Generated tokens per second as the server counts them (`predicted_per_second`).
        var generationTokensPerSecond: Double?
    }

    /// An answer with an error status: a 400 is a request the server refused (a JSON schema it
    /// cannot turn into a grammar, for one), anything else a failure.
    struct ErrorReply: Error, CustomStringConvertible {
        var status: Int
        var body: String
        var description: String { "llama-server answered \(status): \(body.prefix(300))" }
    }

    /// One request to /v1/chat/completions; throws when the server does not answer within
    /// `timeout` seconds, answers with an error status, or answers with something unreadable.
    /// `responseFormat` is OpenAI's `response_format` (e.g. a JSON schema the reply must follow);
    /// `cachesPrompt: false` makes the server decode the whole prompt again (`cache_prompt`).
    func chat(messages: [JSONValue], tools: [JSONValue], maxTokens: Int, toolChoice: String = "auto", responseFormat: JSONValue? = nil,
              cachesPrompt: Bool = true, timeout: Double) async throws -> Reply {
        var body: JSONObject = ["messages": .array(messages), "max_tokens": .int(maxTokens), "temperature": 0, "stream": false]
        if !cachesPrompt { body["cache_prompt"] = false }
        if !tools.isEmpty {
            body["tools"] = .array(tools)
            body["tool_choice"] = .string(toolChoice)
        }
        if let responseFormat { body["response_format"] = responseFormat }
        let json = try await post("/v1/chat/completions", body, what: "a chat request (max_tokens \(maxTokens))", timeout: timeout)
        let choice = json["choices"]?[0] ?? .null
        let message = choice["message"] ?? .null
        let calls = (message["tool_calls"]?.arrayValue ?? []).map { call in
            (id: call["id"]?.stringValue ?? "", name: call["function"]?["name"]?.stringValue ?? "",
             arguments: call["function"]?["arguments"]?.stringValue ?? "")
        }
        return Reply(content: message["content"]?.stringValue ?? "", toolCalls: calls,
                     promptTokens: json["usage"]?["prompt_tokens"]?.intValue ?? 0,
                     cachedTokens: json["usage"]?["prompt_tokens_details"]?["cached_tokens"]?.intValue ?? json["timings"]?["cache_n"]?.intValue ?? 0,
                     completionTokens: json["usage"]?["completion_tokens"]?.intValue ?? 0,
                     finishReason: choice["finish_reason"]?.stringValue ?? "",
                     assistantMessage: message,
                     promptMilliseconds: json["timings"]?["prompt_ms"]?.doubleValue,
                     generationMilliseconds: json["timings"]?["predicted_ms"]?.doubleValue,
                     generationTokensPerSecond: json["timings"]?["predicted_per_second"]?.doubleValue)
    }

    /// One request to /completion: `body` holds the prompt text and the sampling fields
    /// (`n_predict`, `grammar`, `stop`, ...); the answer is the server's JSON, with `content`,
    /// `stop_type` and `timings`.
    func complete(_ body: JSONObject, timeout: Double) async throws -> JSONValue {
        try await post("/completion", body, what: "a completion request", timeout: timeout)
    }

    /// This server as a `LanguageModel` for sessions (the e2e section's same-work peer): the
    /// public remote model, with `vocabulary` (the same file loaded in-process) giving the
    /// template, the exact token counts and the prompt's tokens, so the server reads the tokens
    /// Lantern decodes. `timeout` bounds each wait for the server.
    func model(vocabulary: LocalModel, timeout: Double) async throws -> OpenAICompatibleModel {
        try await OpenAICompatibleModel(url: url(), configuration: .init(vocabulary: vocabulary, timeout: .seconds(timeout)))
    }

    /// Saves slot `slot`'s KV cache to `filename`, or restores it from there (`action` "save" or
    /// "restore"), in the folder the server was started with (`--slot-save-path`); the answer
    /// holds `n_saved` or `n_restored` (tokens) and `timings` (`save_ms`, `restore_ms`).
    func slot(_ slot: Int, _ action: String, filename: String, timeout: Double) async throws -> JSONValue {
        try await post("/slots/\(slot)?action=\(action)", ["filename": .string(filename)], what: "a slot \(action)", timeout: timeout)
    }

    /// POSTs `body` to `path` and reads the JSON answer; `what` names the request in errors.
    private func post(_ path: String, _ body: JSONObject, what: String, timeout: Double) async throws -> JSONValue {
        let response: (status: Int, body: Data)
        do {
            response = try await HTTPClient.send(.post(url(path), json: Data(JSONValue.object(body).jsonString.utf8)),
                                                 timeout: .seconds(max(1, timeout)))
        } catch .timedOut {
            throw BenchmarkFailure("llama-server did not answer \(what) within \(Int(timeout)) s")
        } catch {
            if let exited = server.exitFailure(during: what) { throw exited }
            throw BenchmarkFailure("\(what) to llama-server failed: \(error)")
        }
        let text = String(decoding: response.body, as: UTF8.self)
        guard response.status == 200 else { throw ErrorReply(status: response.status, body: text) }
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw BenchmarkFailure("llama-server's answer is not JSON (\(error)): \(text.prefix(300))")
        }
    }
}

/// Reading a process's memory from /proc.
enum ProcessMemory {
    /// VmHWM (peak resident set) of `pid`, in bytes.
    static func peakResidentBytes(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }
}
