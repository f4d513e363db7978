import Foundation
import Lantern
import LocalModel

/// Answers one `POST /v1/chat/completions` on its connection's thread: checks the request,
/// takes a place among the answering and waiting (`AnswerSlots`), answers the last user message
/// in a task of its own through `QuestionAnswerer` (a fresh session with the search tool, as
/// `ask` answers), and writes the result whole or as server-sent events while it grows.
struct ChatCompletionResponder: Sendable {
    let answerer: QuestionAnswerer
    let slots: AnswerSlots
    let modelID: String
    let maximumTokens: Int

    /// Writes the response; returns its status for the log. Throws an `OpenAIError` to refuse
    /// before anything is written, a `SocketError` when the client went away.
    func respond(to request: HTTPRequest, on connection: ConnectedSocket) throws -> Int {
        let chat = try ChatCompletionRequest.decode(request.body)
        guard chat.model == modelID else { throw OpenAIError.unknownModel(chat.model, served: modelID) }
        try chat.checkSupported()
        let question = try chat.question()
        var answerer = answerer
        answerer.maximumTokens = try chat.maximumTokens(limit: maximumTokens)
        try slots.admit()
        let channel = AnswerChannel()
        let task = Task { [answerer, slots] in
            await slots.takeTurn()
            do {
                let report = try await answerer.answer(question) { event in
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
            let completion = ChatCompletion(id: id, created: created, model: modelID, choices: [.init(message: .init(content: answer))],
                                            usage: TokenUsage(report.tokens), lantern: AnswerExtension(report))
            try connection.send(HTTPResponse.json(completion).bytes)
            return 200
        } catch let error as SocketError {
            // the client is gone: stop generating for it
            task.cancel()
            throw error
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
        func chunk(_ delta: ChatCompletionChunk.Delta, finish: String? = nil) -> ChatCompletionChunk {
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
                var last = chunk(.init(), finish: "stop")
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

    /// An answer's failure as the client should read it: a question too long for the window is
    /// the client's to shorten (400), anything else is the server's (500).
    private static func refusal(_ error: any Error) -> OpenAIError {
        if case LanguageModelSession.GenerationError.exceededContextWindowSize(let budget)? = error as? LanguageModelSession.GenerationError {
            return .badRequest(budget.description, param: "messages", code: "context_length_exceeded")
        }
        return .server("the answer failed: \(error)")
    }
}
