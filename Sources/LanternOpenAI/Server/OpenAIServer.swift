import Foundation
import Lantern
import Synchronization

/// An OpenAI-compatible HTTP/1.1 server over one loaded model and one index: `GET /v1/models`
/// and `POST /v1/chat/completions`, streamed or not, each question answered by the search loop
/// `ask` runs (`QuestionAnswerer`), with its sources under `lantern` (`AnswerExtension`).
///
/// Sockets block, so the server keeps them off Swift's cooperative pool: one thread accepts,
/// and each connection is read and written by a thread of its own, while its answer is
/// generated in a task (`ChatCompletionResponder`). Every bound is in `ServerLimits`, and every
/// refusal is an `OpenAIError`. With an `apiKey`, every request must carry it as a bearer
/// token; a server reachable from another address should never run without one (`ask serve`
/// refuses to).
public final class OpenAIServer: Sendable {
    /// The id clients name in `model`: the model file's name without `.gguf`.
    public let modelID: String
    private let apiKey: String?
    private let limits: ServerLimits
    private let responder: ChatCompletionResponder
    private let log: @Sendable (String) -> Void
    private let started = Int(Date().timeIntervalSince1970)
    private let openConnections = Mutex(0)

    /// `answerer` answers every question; its model must have been loaded with
    /// `parallelSessions` of at least `limits.parallel`. `log` gets one line per request.
    public init(answerer: QuestionAnswerer, limits: ServerLimits, apiKey: String?, log: @escaping @Sendable (String) -> Void) {
        modelID = answerer.modelName
        self.apiKey = apiKey
        self.limits = limits
        self.log = log
        responder = ChatCompletionResponder(answerer: answerer, slots: AnswerSlots(parallel: limits.parallel, queue: limits.queue),
                                            modelID: modelID, maximumTokens: limits.maximumTokens)
    }

    /// Accepts connections on `socket` until accepting fails for good (logged), each served on
    /// a thread of its own.
    public func serve(_ socket: ListeningSocket) async {
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [self] in
                acceptConnections(socket)
                stopped.resume()
            }
        }
    }

    private func acceptConnections(_ socket: ListeningSocket) {
        while true {
            let connection: ConnectedSocket
            do {
                connection = try socket.accept()
            } catch {
                // out of descriptors or memory: the connections open now will free some
                if case .system(_, let code) = error, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) {
                    log("\(error); pausing before the next connection")
                    Thread.sleep(forTimeInterval: 0.1)
                    continue
                }
                log("stopped: \(error)")
                return
            }
            let admitted = openConnections.withLock { open in
                guard open < limits.maximumConnections else { return false }
                open += 1
                return true
            }
            guard admitted else {
                try? connection.send(OpenAIError.tooManyConnections(limits.maximumConnections).response.bytes)
                continue
            }
            Thread.detachNewThread { [self] in
                serveConnection(connection)
                openConnections.withLock { $0 -= 1 }
            }
        }
    }

    /// Reads the connection's one request, answers or refuses it, and logs the outcome.
    private func serveConnection(_ connection: ConnectedSocket) {
        connection.setTimeout(seconds: limits.socketTimeout)
        let start = ContinuousClock.now
        var label = "(request not read)"
        do {
            guard let request = try HTTPRequestReader(socket: connection, maximumBodyBytes: limits.maximumBodyBytes).read() else { return }
            label = "\(request.method) \(request.path)"
            let status = try respond(to: request, on: connection)
            log("\(label) \(status) in \(String(format: "%.1f", (ContinuousClock.now - start).seconds)) s")
        } catch let refusal as OpenAIError {
            log("\(label) \(refusal.status): \(refusal.message)")
            try? connection.send(refusal.response.bytes)
        } catch {
            log("\(label): the connection ended: \(error)")
        }
    }

    /// Checks the key, then routes by path and method; returns the status written.
    private func respond(to request: HTTPRequest, on connection: ConnectedSocket) throws -> Int {
        if let apiKey, !Self.sameKey(request.bearerToken, apiKey) { throw OpenAIError.invalidKey }
        let models = ModelList(data: [.init(id: modelID, created: started)])
        let response: HTTPResponse
        switch request.path {
        case "/v1/chat/completions":
            guard request.method == "POST" else { throw OpenAIError.methodNotAllowed(request.method, request.path, allowed: "POST") }
            return try responder.respond(to: request, on: connection)
        case "/v1/models":
            guard request.method == "GET" else { throw OpenAIError.methodNotAllowed(request.method, request.path, allowed: "GET") }
            response = .json(models)
        case "/v1/models/\(modelID)":
            guard request.method == "GET" else { throw OpenAIError.methodNotAllowed(request.method, request.path, allowed: "GET") }
            response = .json(models.data[0])
        case let path where path.hasPrefix("/v1/models/"):
            throw OpenAIError.unknownModel(String(path.dropFirst("/v1/models/".count)), served: modelID)
        default:
            throw OpenAIError.unknownPath(request.method, request.path)
        }
        try connection.send(response.bytes)
        return response.status
    }

    /// Compares in time that does not depend on where the first difference is, so the key
    /// cannot be found a byte at a time by timing refusals.
    private static func sameKey(_ given: String?, _ key: String) -> Bool {
        let given = Array((given ?? "").utf8), key = Array(key.utf8)
        var difference = given.count ^ key.count
        for index in key.indices { difference |= Int(key[index] ^ (index < given.count ? given[index] : 0)) }
        return difference == 0
    }
}
