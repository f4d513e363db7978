import Foundation
import Synchronization
import LocalModel
import TestModelSupport

/// llama.cpp's own rendering of a conversation through a family's real Jinja template: the
/// `prompt` that `llama-server --jinja`'s `/apply-template` endpoint returns for an
/// OpenAI-style request (messages with `tool_calls` and `tool` results, plus `tools`), on the
/// family's tiny model. Tests compare Lantern's tool layouts with it byte for byte.
///
/// One server per family, started on first use and shared by the tests of a run: a
/// `LlamaServerProcess`, which ends with the test process however it ends, and takes its folder
/// (log, template copy) with it.
///
/// What llama-server does around the template, which a comparison must allow for: a
/// beginning-of-sequence token the template writes first (`{{ bos_token }}`) is taken off the
/// prompt, since the model's tokenizer adds it; a `tool_calls` entry's `arguments` reach the
/// template as the JSON object they spell when the template can take one (Qwen's and Llama's
/// then write it with spaces after `:` and `,`) and as the string given otherwise (DeepSeek's);
/// Llama 3's date is today's unless `date_string` is given.
final class LlamaServerTemplateReference: Sendable {
    let family: TemplateFamily
    let server: LlamaServerProcess

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
        do {
            server = try await LlamaServerProcess(model: model, context: 1024, arguments: ["--jinja"], startupTimeout: Self.startupTimeout) { folder in
                let template = try family.template()
                guard template.contains("\\\n") else { return [] }
                // llama.cpp's Jinja lexer rejects a backslash before a line break inside a string
                // ("unknown escape character"); Python's Jinja, which renders it for the model's
                // own tokenizer, drops the pair, so the server gets the template with them dropped.
                let file = folder.appendingPathComponent(family.fixtureName)
                try template.replacingOccurrences(of: "\\\n", with: "").write(to: file, atomically: true, encoding: .utf8)
                return ["--chat-template-file", file.path]
            }
        } catch {
            throw .serverDidNotStart(family: family, reason: error.reason, log: error.log)
        }
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
            (status, text) = try await server.post("/apply-template", json: JSONValue.object(body).jsonString)
        } catch {
            throw .requestFailed(family: family, reason: "\(error)", log: server.logTail)
        }
        guard let answer = try? JSONValue(parsing: text) else { throw .unreadableAnswer(family: family, status: status, body: text) }
        guard status == 200, let prompt = answer["prompt"]?.stringValue else {
            throw .templateRejected(family: family, status: status, message: answer["error"]?["message"]?.stringValue ?? text)
        }
        return prompt
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
