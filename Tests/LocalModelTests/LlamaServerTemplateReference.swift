import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import LocalModel

/// llama.cpp's own rendering of a conversation through a family's real Jinja template: the
/// `prompt` that `llama-server --jinja`'s `/apply-template` endpoint returns for an
/// OpenAI-style request (messages with `tool_calls` and `tool` results, plus `tools`), on the
/// family's tiny model. Tests compare Lantern's tool layouts with it byte for byte.
///
/// One server per family, started on first use and shared by the tests of a run. Each server
/// runs under a shell that kills it when its standard input reaches end of file, and that input
/// is a pipe only this process writes to: when the test process ends, however it ends, the
/// servers end with it and their folders (log, template copy) are removed (no teardown hook
/// needed, none missed after a crash).
///
/// What llama-server does around the template, which a comparison must allow for: a
/// beginning-of-sequence token the template writes first (`{{ bos_token }}`) is taken off the
/// prompt, since the model's tokenizer adds it; a `tool_calls` entry's `arguments` reach the
/// template as the JSON object they spell when the template can take one (Qwen's and Llama's
/// then write it with spaces after `:` and `,`) and as the string given otherwise (DeepSeek's);
/// Llama 3's date is today's unless `date_string` is given.
///
/// `@unchecked Sendable`: its stored properties never change after `init`, and `Process` and
/// `FileHandle` are only asked thread-safe things (wait, close).
final class LlamaServerTemplateReference: @unchecked Sendable {
    let family: TemplateFamily
    let port: Int
    /// The server's stdout and stderr.
    let logURL: URL
    /// Kept so that Foundation reaps the server when it ends.
    private let process: Process
    /// The write end of the server's lifeline: the server ends when it closes, with this process.
    private let lifeline: FileHandle

    /// How long starting a server (loading the tiny model) may take.
    static let startupTimeout: Duration = .seconds(60)

    /// The running server of `family`, started on first use.
    static func shared(_ family: TemplateFamily) async throws(LlamaServerTemplateReferenceError) -> LlamaServerTemplateReference {
        let task = servers.withLock { servers in
            if let running = servers[family] { return running }
            let starting = Task { try await LlamaServerTemplateReference(family: family, model: try TinyFamilyModel.url(family)) }
            servers[family] = starting
            return starting
        }
        do {
            return try await task.value
        } catch let error as LlamaServerTemplateReferenceError {
            throw error
        } catch {
            throw .serverDidNotStart(family: family, reason: "\(error)", log: "")
        }
    }

    private static let servers = Mutex<[TemplateFamily: Task<LlamaServerTemplateReference, any Error>]>([:])

    /// A server of its own on `model`, which should carry `family`'s template; `shared` is the
    /// one to use, this is for a server that must fail.
    init(family: TemplateFamily, model: URL) async throws(LlamaServerTemplateReferenceError) {
        self.family = family
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-llama-server-\(UUID().uuidString)")
        let logURL = folder.appendingPathComponent("llama-server-\(family.rawValue).log")
        self.logURL = logURL
        func failure(_ reason: String) -> LlamaServerTemplateReferenceError {
            .serverDidNotStart(family: family, reason: reason, log: (try? String(contentsOf: logURL, encoding: .utf8)) ?? "")
        }
        var arguments: [String]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
            arguments = ["-m", model.path, "--host", "127.0.0.1", "--port", "0", "-t", "1", "-c", "1024", "-np", "1", "--jinja", "--no-webui"]
            let template = try family.template()
            if template.contains("\\\n") {
                // llama.cpp's Jinja lexer rejects a backslash before a line break inside a string
                // ("unknown escape character"); Python's Jinja, which renders it for the model's
                // own tokenizer, drops the pair, so the server gets the template with them dropped.
                let file = folder.appendingPathComponent(family.fixtureName)
                try template.replacingOccurrences(of: "\\\n", with: "").write(to: file, atomically: true, encoding: .utf8)
                arguments += ["--chat-template-file", file.path]
            }
        } catch {
            throw failure("its files could not be prepared: \(error)")
        }
        let log: FileHandle
        do { log = try FileHandle(forWritingTo: logURL) } catch { throw failure("its log is not writable: \(error)") }
        defer { try? log.close() }

        let pipe = Pipe()
        lifeline = pipe.fileHandleForWriting
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // A background reader of the pipe kills the shell's process at end of file and removes
        // the server's folder; the shell becomes the server (same process id), so `process` is
        // the server itself.
        let script = #"exec 3<&0; folder=$1; shift; (read _ <&3; kill -KILL $$ 2>/dev/null; rm -rf "$folder") </dev/null & exec "$@" </dev/null"#
        process.arguments = ["-c", script, "sh", folder.path, "/usr/bin/llama-server"] + arguments
        process.standardInput = pipe
        process.standardOutput = log
        process.standardError = log
        do {
            try process.run()
        } catch {
            throw failure("/bin/sh could not start /usr/bin/llama-server (\(error)); install llama.cpp's tools with scripts/setup.sh")
        }
        try? pipe.fileHandleForReading.close()

        let deadline = ContinuousClock.now + Self.startupTimeout
        var listening: Int?
        while ContinuousClock.now < deadline {
            guard process.isRunning, !Self.hasEnded(process.processIdentifier) else {
                // the error quotes the log before the lifeline's end removes it
                let error = failure("llama-server exited while starting")
                try? lifeline.close()
                throw error
            }
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if listening == nil, let range = text.range(of: "listening on http://127.0.0.1:") {
                listening = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            if let port = listening, (try? await Self.get(port: port, path: "/health"))?.status == 200 {
                self.port = port
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let error = failure("llama-server did not answer /health within \(Self.startupTimeout)")
        try? lifeline.close()
        throw error
    }

    /// The prompt llama.cpp renders for `messages` (OpenAI chat messages) and `tools` (OpenAI
    /// tool definitions) through the family's template, ending with the assistant's opening
    /// when `addGenerationPrompt`. `templateArguments` go to the template as variables
    /// (`chat_template_kwargs`): `date_string` for Llama 3's date, `enable_thinking` for Qwen3.
    func prompt(messages: [JSONValue], tools: [JSONValue] = [], addGenerationPrompt: Bool = true,
                templateArguments: JSONObject = [:]) async throws(LlamaServerTemplateReferenceError) -> String {
        var body: JSONObject = ["messages": .array(messages), "add_generation_prompt": .bool(addGenerationPrompt)]
        if !tools.isEmpty { body["tools"] = .array(tools) }
        if !templateArguments.isEmpty { body["chat_template_kwargs"] = .object(templateArguments) }
        let status: Int, text: String
        do {
            (status, text) = try await Self.post(port: port, path: "/apply-template", json: JSONValue.object(body).jsonString)
        } catch {
            throw .requestFailed(family: family, reason: "\(error)", log: logTail)
        }
        guard let answer = try? JSONValue(parsing: text) else { throw .unreadableAnswer(family: family, status: status, body: text) }
        guard status == 200, let prompt = answer["prompt"]?.stringValue else {
            throw .templateRejected(family: family, status: status, message: answer["error"]?["message"]?.stringValue ?? text)
        }
        return prompt
    }

    /// Whether process `pid` has ended. Under the test runner Foundation may leave an ended
    /// child unreaped for a while (`isRunning` stays true), so its state is read from /proc.
    private static func hasEnded(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return true }
        return ["Z", "X"].contains(stat[afterName.upperBound...].prefix(1))
    }

    private var logTail: String {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: "\n")
    }

    private static func get(port: Int, path: String) async throws -> (status: Int, text: String) {
        try await send(URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!))
    }

    private static func post(port: Int, path: String, json: String) async throws -> (status: Int, text: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        return try await send(request)
    }

    private static func send(_ request: URLRequest) async throws -> (status: Int, text: String) {
        var request = request
        request.timeoutInterval = 30
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

/// What went wrong getting llama.cpp's rendering, with what the server said.
enum LlamaServerTemplateReferenceError: Error, CustomStringConvertible {
    /// The server did not start; `log` is its stdout and stderr.
    case serverDidNotStart(family: TemplateFamily, reason: String, log: String)
    /// The template refused the request (a `raise_exception`, a role it does not know).
    case templateRejected(family: TemplateFamily, status: Int, message: String)
    case unreadableAnswer(family: TemplateFamily, status: Int, body: String)
    case requestFailed(family: TemplateFamily, reason: String, log: String)

    var description: String {
        switch self {
        case .serverDidNotStart(let family, let reason, let log):
            "llama-server for the tiny \(family.rawValue) model did not start: \(reason). Its output:\n\(log)"
        case .templateRejected(let family, let status, let message):
            "llama-server (\(family.rawValue)) answered \(status): the template refused the conversation: \(message)"
        case .unreadableAnswer(let family, let status, let body):
            "llama-server (\(family.rawValue)) answered \(status) with something that is not JSON: \(body.prefix(300))"
        case .requestFailed(let family, let reason, let log):
            "the /apply-template request to llama-server (\(family.rawValue)) failed: \(reason). Its log ends:\n\(log)"
        }
    }
}
