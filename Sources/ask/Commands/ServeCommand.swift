import CommandLineArguments
import Foundation
import Lantern
import LanternOpenAI
import LocalModel

/// `ask serve`: the model and the index behind OpenAI's chat completions API, so OpenAI's
/// clients and the front ends built on them ask Lantern's grounded questions. The model is
/// loaded once and the index opened once, both before the server listens; each request is one
/// question answered as `ask` answers it, with the sources under `lantern` in the response.
/// The system turn's KV state goes to the prompt cache as `ask`'s does (unless
/// `--no-prompt-cache`), so a restarted server does not decode it again.
struct ServeCommand: Command {
    static let configuration = CommandConfiguration(
        tool: "ask", name: "serve", abstract: "Answer questions over an index through an OpenAI-compatible HTTP API (/v1/chat/completions, /v1/models).",
        discussion: [
            "The last user message of each request is the question: a search over the index, as 'ask QUESTION' runs it,",
            "after the earlier messages (and a system message, said after the index's instructions). The answer's sources",
            "and searches come under \"lantern\" in the completion (and in a stream's last chunk before data: [DONE]).",
            "The model's id in /v1/models is its file's name without .gguf.",
            "",
            "The request's function tools are offered beside the search, their JSON Schemas compiled into the call grammar:",
            "a call of one ends the reply with tool_calls (finish_reason \"tool_calls\"), and the next request, with the",
            "assistant's tool_calls and the tool results, goes on from them. tool_choice \"required\" or a named function",
            "makes the reply a call of the client's functions, without searching first; \"none\" leaves them uncalled.",
            "",
            "Listens on 127.0.0.1 unless --host says otherwise; any other address needs --api-key (or LANTERN_API_KEY),",
            "and then every request must send 'Authorization: Bearer KEY'. --parallel questions are answered at once (their",
            "decodes batched in one llama.cpp context), --queue more wait; past that a request gets 429.",
            "",
            "EXAMPLE:",
            "  ask serve --folder ~/notes --port 8080",
            "  curl http://127.0.0.1:8080/v1/chat/completions -d '{\"model\": \"SmolLM2-135M-Instruct.Q4_1\", \"messages\": [{\"role\": \"user\", \"content\": \"Where did I camp?\"}]}'",
        ])

    @OptionGroup var modelFlags: ModelLoadingOptions
    @OptionGroup var data: DataOptions
    @OptionGroup var guide: GuideOptions
    @Option(.answer) var answerStyle: GenerationOptions.AnswerStyle
    @Option("host", .text("ADDRESS"), help: "The IP address to listen on; one that is not loopback needs --api-key.") var host = "127.0.0.1"
    @Option("port", .wholeNumber(in: 0...UInt16.max), help: "The port to listen on; 0 picks a free one (printed).") var port: UInt16 = 8080
    @Option("api-key", .text("KEY"), help: "Require 'Authorization: Bearer KEY' on every request (default: $LANTERN_API_KEY).")
    var apiKey: String?
    @Option("max-body-bytes", .wholeNumber(atLeast: 1024), help: "The largest request body; larger ones get 413.") var maximumBodyBytes = ServerLimits().maximumBodyBytes
    @Option("max-tokens", .wholeNumber(atLeast: 1), help: "The most tokens per generation round a request may ask for, and what one that names none gets.")
    var maximumTokens = ServerLimits().maximumTokens
    @Option("parallel", .wholeNumber(in: 1...LocalModel.Configuration.maximumParallelSessions), help: "Questions answered at once, decoded together.")
    var parallel = ServerLimits().parallel
    @Option("queue", .wholeNumber(atLeast: 0), help: "Questions waiting for a turn beyond those; one more gets 429.") var queue = ServerLimits().queue

    /// The variable read for the key when --api-key is not given.
    static let apiKeyVariable = "LANTERN_API_KEY"

    func run() async throws -> Int32 {
        // the mistakes the options cannot see alone, before anything is loaded
        let selection = try data.soleSelection(usage: Self.usage)
        let key = apiKey ?? ProcessInfo.processInfo.environment[Self.apiKeyVariable].flatMap { $0.isEmpty ? nil : $0 }
        let address: SocketAddress
        do {
            address = try SocketAddress(host: host, port: port)
        } catch {
            throw Self.usageError("--host \(error)")
        }
        guard address.isLoopback || key != nil else {
            throw Self.usageError("--host \(host) is reachable from other machines, which could then read the index: give --api-key KEY (or set \(Self.apiKeyVariable)), or listen on 127.0.0.1")
        }
        let modelOptions = modelFlags.options
        var loader = modelOptions.loader
        loader.configuration.parallelSessions = parallel
        _ = try loader.locate()

        let opened = try await data.opener.open(selection)
        let setup = try await SearchSetup(index: opened.index, guide: guide.level, format: guide.format)
        let (model, loadDuration) = try await loader.load()
        try modelOptions.checkContext(for: model)
        var answerer = QuestionAnswerer(model: model, setup: setup)
        answerer.window = modelFlags.context
        answerer.answerStyle = answerStyle
        answerer.loadDuration = loadDuration

        var limits = ServerLimits()
        limits.maximumBodyBytes = maximumBodyBytes
        limits.maximumTokens = maximumTokens
        limits.parallel = parallel
        limits.queue = queue
        let server = OpenAIServer(answerer: answerer, limits: limits, apiKey: key, log: { Terminal.error("ask serve: \($0)\n") })
        let socket = try ListeningSocket(address: address)
        let url = "http://\(socket.address)/v1"
        Terminal.error("ask serve: serving '\(opened.name)' (\(opened.itemCount) items) as model '\(server.modelID)'\(key == nil ? "" : ", API key required")\n")
        Terminal.error("ask serve: listening on \(url)\n")
        await server.serve(socket)
        return 1
    }
}
