import Foundation
import Lantern
import LocalModel

/// Answers one `POST /v1/chat/completions` on its connection's thread: checks the request,
/// reads its messages and tools into a `Conversation`, takes a place among the answering and
/// waiting (`AnswerSlots`), answers in a task of its own through `QuestionAnswerer` (a fresh
/// session with the search tool and the client's functions, as `ask` answers), and writes the
/// result whole or as server-sent events while it grows.
struct ChatCompletionResponder: Sendable {
    let answerer: QuestionAnswerer
    let slots: AnswerSlots
    let modelID: String
    let maximumTokens: Int
    private let reader: ConversationReader

    init(answerer: QuestionAnswerer, slots: AnswerSlots, modelID: String, maximumTokens: Int) {
        self.answerer = answerer
        self.slots = slots
        self.modelID = modelID
        self.maximumTokens = maximumTokens
        let tool = answerer.setup.makeTool()
        reader = ConversationReader(callSyntax: answerer.model.chatTemplate.toolLayout.callSyntax,
                                    reservedToolNames: [tool.name, tool.configuration.fetchToolName])
    }

    /// Writes the response; returns its status for the log. Throws an `OpenAIError` to refuse
    /// before anything is written, a `SocketError` when the client went away.
    func respond(to request: HTTPRequest, on connection: ConnectedSocket) throws -> Int {
        let chat = try ChatCompletionRequest.decode(request.body)
        guard chat.model == modelID else { throw OpenAIError.unknownModel(chat.model, served: modelID) }
        try chat.checkSupported()
        let conversation = try reader.conversation(of: chat)
        var answerer = answerer
        answerer.maximumTokens = try chat.maximumTokens(limit: maximumTokens)
        // the searching round's call is the server's, not the client's answer: it keeps the server's cap
        answerer.maximumCallRoundTokens = maximumTokens
        try slots.admit()
        let channel = AnswerChannel()
        let task = Task { [answerer, slots] in
            await slots.takeTurn()
            do {
                let report = try await answerer.answer(conversation) { event in
                    if case .text(let text) = event { channel.publish(text) }
                }
                channel.finish(.success(report))
            } catch {
                channel.finish(.failure(error))
            }
            slots.leave()
        }
        let id = "chatcmpl-" + UUID().uuidString.lowercased()
        let created = Int(Date().timeIntervalSince1970)
        do {
            if chat.stream == true {
                try stream(channel, id: id, created: created, includeUsage: chat.streamOptions?.includeUsage == true, to: connection)
                return 200
            }
            let (answer, end) = Self.wait(for: channel)
            let report = try end.mapError(Self.refusal).get()
            let calls = Self.functionCalls(of: report)
            let message = ChatCompletion.Message(content: calls != nil && answer.isEmpty ? nil : answer, toolCalls: calls)
            let completion = ChatCompletion(id: id, created: created, model: modelID,
                                            choices: [.init(message: message, finishReason: FinishReason(report))],
                                            usage: TokenUsage(report.tokens), lantern: AnswerExtension(report))
            try connection.send(HTTPResponse.json(completion).bytes)
            return 200
        } catch let error as SocketError {
            // the client is gone: stop generating for it
            task.cancel()
            throw error
        }
    }

    /// The report's calls of the client's functions with ids in OpenAI's form (`call_…`), which
    /// the client sends back with their results; nil when the model answered.
    private static func functionCalls(of report: AnswerReport, indexed: Bool = false) -> [FunctionCall]? {
        report.externalToolCalls.map { calls in
            calls.enumerated().map { index, call in
                FunctionCall(call, id: "call_" + UUID().uuidString.lowercased().filter { $0 != "-" }.prefix(24), index: indexed ? index : nil)
            }
        }
    }

    /// The rendered answer and how it ended, once it has.
    private static func wait(for channel: AnswerChannel) -> (String, Result<AnswerReport, any Error>) {
        var answer = ""
        while true {
            let update = channel.next()
            if let text = update.text { answer = text }
            if let end = update.end { return (answer, end) }
        }
    }

    /// Writes the event stream: the role, each new piece of text, the last chunk with the
    /// sources, the usage when asked, and `data: [DONE]`; a failure after the head is one
    /// `data: {"error": …}` event in OpenAI's shape, which its client raises.
    private func stream(_ channel: AnswerChannel, id: String, created: Int, includeUsage: Bool, to connection: ConnectedSocket) throws {
        func chunk(_ delta: ChatCompletionChunk.Delta, finish: FinishReason? = nil) -> ChatCompletionChunk {
            ChatCompletionChunk(id: id, created: created, model: modelID, choices: [.init(delta: delta, finishReason: finish)])
        }
        try connection.send(HTTPResponse.head(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")]))
        try connection.send(chunk(.init(role: "assistant", content: "")).event)
        var sent = 0
        while true {
            let update = channel.next()
            if let text = update.text, text.count > sent {
                try connection.send(chunk(.init(content: String(text.dropFirst(sent)))).event)
                sent = text.count
            }
            guard let end = update.end else { continue }
            switch end.mapError(Self.refusal) {
            case .success(let report):
                if let calls = Self.functionCalls(of: report, indexed: true) {
                    for call in calls { try connection.send(chunk(.init(toolCalls: [call])).event) }
                }
                var last = chunk(.init(), finish: FinishReason(report))
                last.lantern = AnswerExtension(report)
                try connection.send(last.event)
                if includeUsage {
                    var usage = ChatCompletionChunk(id: id, created: created, model: modelID, choices: [])
                    usage.usage = TokenUsage(report.tokens)
                    try connection.send(usage.event)
                }
                try connection.send(Array("data: [DONE]\n\n".utf8))
            case .failure(let refusal):
                try connection.send(Array("data: ".utf8) + refusal.response.body + Array("\n\n".utf8))
            }
            return
        }
    }

    /// An answer's failure as the client should read it: a conversation too long for the
    /// window (the message names what filled it) or one the session cannot go on from is the
    /// client's to change (400), anything else is the server's (500).
    private static func refusal(_ error: any Error) -> OpenAIError {
        switch error as? LanguageModelSession.GenerationError {
        case .exceededContextWindowSize(let budget)?:
            return .badRequest(budget.description, param: "messages", code: "context_length_exceeded")
        case .cannotContinue?, .invalidHistory?:
            return .badRequest("\(error)", param: "messages")
        default:
            return .server("the answer failed: \(error)")
        }
    }
}
