import Foundation
import LocalModel

/// An MCP server over stdio that serves Lantern tools to a client's model: `ask mcp`.
///
/// It speaks the handshake revisions of the protocol (`ProtocolVersion`): `initialize` agrees a
/// revision and says the server has tools, then `tools/list`, `tools/call` and `ping`, with
/// `notifications/cancelled` ending a call in flight (which then gets no response, as the
/// specification asks). Messages are JSON-RPC 2.0, one per line; a line that is not JSON, a
/// message that is not a request and an unknown method get the JSON-RPC error for them, and
/// the server reads on. A tool's failure, a wrong argument included, is a result with `isError`,
/// which the client hands to its model to correct.
///
/// The tools come from `loadTools`, run once when serving starts: building an index can take
/// minutes, and a client gives up on a server that does not answer `initialize`, so the
/// handshake and `ping` are answered at once and `tools/list` and `tools/call` wait for the
/// tools (a cancelled call stops waiting). If they cannot be had, those requests get the error.
public actor MCPServer {
    /// Who the server says it is in `initialize`, and the instructions a client may give its model.
    public struct Identity: Sendable {
        public var name: String
        public var version: String
        public var instructions: String?

        public init(name: String, version: String, instructions: String? = nil) {
            self.name = name
            self.version = version
            self.instructions = instructions
        }
    }

    private let identity: Identity
    private let loadTools: @Sendable () async throws -> [ServedTool]
    private let tools = PendingValue<[ServedTool]>()
    private let writer: MessageWriter
    private let log: @Sendable (String) -> Void
    /// The revision `initialize` agreed; nil before it.
    private var version: String?
    /// Requests being worked on, by id, so `notifications/cancelled` can end them.
    private var inFlight: [JSONRPCID: Task<Void, Never>] = [:]

    /// `log` receives one line per event worth telling the person running the server (never the
    /// client: stdout is the protocol's).
    public init(identity: Identity, output: FileHandle = .standardOutput, log: @escaping @Sendable (String) -> Void,
                loadTools: @escaping @Sendable () async throws -> [ServedTool]) {
        self.identity = identity
        self.writer = MessageWriter(output)
        self.log = log
        self.loadTools = loadTools
    }

    /// Serves the messages in `lines` until they end (the client closed stdin); calls still
    /// in flight then are cancelled.
    public func serve(_ lines: AsyncStream<String>) async {
        let loading = Task { [loadTools, tools, log] in
            do {
                await tools.resolve(.success(try await loadTools()))
            } catch {
                log("the tools are not available: \(error)")
                await tools.resolve(.failure(error))
            }
        }
        for await line in lines {
            receive(line)
        }
        loading.cancel()
        for call in inFlight.values { call.cancel() }
    }

    /// Reads one line and answers it, or starts the work that will.
    private func receive(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace) else { return }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        } catch {
            writer.respond(to: nil, error: .parseError("the line is not JSON: \(Self.excerpt(line))"))
            return
        }
        let message: JSONRPCMessage
        do {
            message = try JSONRPCMessage(value)
        } catch {
            writer.respond(to: error.id, error: error.error)
            return
        }
        switch message {
        case .request(let id, let method, let params):
            request(id, method, params)
        case .notification(let method, let params):
            notification(method, params)
        case .response(let id):
            log("ignored a response to request \(id.jsonString): this server sends no requests")
        }
    }

    private func request(_ id: JSONRPCID, _ method: String, _ params: JSONValue) {
        switch method {
        case "initialize":
            do {
                writer.respond(to: id, result: try initialize(params))
            } catch {
                writer.respond(to: id, error: error)
            }
        case "ping":
            writer.respond(to: id, result: [:])
        case "tools/list", "tools/call":
            guard let version else {
                writer.respond(to: id, error: .invalidRequest("\(method) before initialize: send initialize first"))
                return
            }
            guard inFlight[id] == nil else {
                writer.respond(to: id, error: .invalidRequest("request id \(id) is already in use by a request in flight"))
                return
            }
            inFlight[id] = Task { [tools, writer, log] in
                if await !tools.isResolved { log("request \(id) (\(method)) waits for the index to open") }
                do {
                    let result = method == "tools/list"
                        ? Self.list(try await tools.value(), version: version)
                        : try await Self.call(params, tools: tools.value(), version: version, log: log)
                    try Task.checkCancellation()
                    writer.respond(to: id, result: result)
                } catch let error as JSONRPCError {
                    writer.respond(to: id, error: error)
                } catch is CancellationError {
                    log("request \(id) (\(method)) was cancelled; it gets no response")
                } catch {
                    writer.respond(to: id, error: .internalError("the tools are not available: \(error)"))
                }
                self.finished(id)
            }
        default:
            writer.respond(to: id, error: .methodNotFound(method))
        }
    }

    private func finished(_ id: JSONRPCID) {
        inFlight[id] = nil
    }

    private func notification(_ method: String, _ params: JSONValue) {
        switch method {
        case "notifications/initialized":
            if version == nil { log("notifications/initialized before initialize; ignored") }
        case "notifications/cancelled":
            guard let id = params["requestId"].flatMap(JSONRPCID.init) else {
                log("notifications/cancelled without a requestId; ignored")
                return
            }
            // A request that already finished, or was never made, is no longer in flight:
            // the specification has the cancellation ignored then.
            inFlight[id]?.cancel()
        default:
            break
        }
    }

    /// `initialize`: agrees a revision and says what the server has: tools, whose list does not change.
    private func initialize(_ params: JSONValue) throws(JSONRPCError) -> JSONValue {
        if let version { throw .invalidRequest("already initialized (protocol \(version)); initialize is sent once") }
        guard let requested = params["protocolVersion"]?.stringValue else {
            throw .invalidParams("initialize needs params.protocolVersion, the revision the client speaks (such as \"\(ProtocolVersion.supported[0])\")")
        }
        let agreed = ProtocolVersion.negotiate(requested)
        version = agreed
        if agreed != requested { log("the client asked for protocol \(requested); answered with \(agreed)") }
        var result: JSONObject = [
            "protocolVersion": .string(agreed),
            "capabilities": ["tools": ["listChanged": false]],
            "serverInfo": ["name": .string(identity.name), "version": .string(identity.version)],
        ]
        if let instructions = identity.instructions { result["instructions"] = .string(instructions) }
        return .object(result)
    }

    /// `tools/list`: every tool, with `outputSchema` from the revision that has structured results.
    private static func list(_ tools: [ServedTool], version: String) -> JSONValue {
        let structured = ProtocolVersion.hasStructuredContent(version)
        return ["tools": .array(tools.map { tool in
            var entry: JSONObject = ["name": .string(tool.name), "description": .string(tool.description),
                                     "inputSchema": tool.parameters.jsonSchema]
            if structured { entry["outputSchema"] = tool.outputSchema }
            return .object(entry)
        })]
    }

    /// `tools/call`: the named tool run with the arguments. An unknown tool or arguments that
    /// are not an object are the request's error; anything the tool says is its result.
    private static func call(_ params: JSONValue, tools: [ServedTool], version: String,
                             log: @Sendable (String) -> Void) async throws -> JSONValue {
        guard let name = params["name"]?.stringValue else {
            throw JSONRPCError.invalidParams("tools/call needs params.name, the name of a tool from tools/list")
        }
        guard let tool = tools.first(where: { $0.name == name }) else {
            throw JSONRPCError.invalidParams("Unknown tool: \(name); the tools are \(tools.map(\.name).joined(separator: " and "))")
        }
        let arguments = params["arguments"] ?? [:]
        guard arguments.objectValue != nil else {
            throw JSONRPCError.invalidParams("tools/call params.arguments must be an object of the tool's arguments, not \(arguments.typeName)")
        }
        let outcome = try await tool.call(arguments)
        if outcome.isError { log("\(name) failed: \(outcome.text.split(separator: "\n").first ?? "")") }
        var result: JSONObject = ["content": [["type": "text", "text": .string(outcome.text)]], "isError": .bool(outcome.isError)]
        if let structured = outcome.structured, ProtocolVersion.hasStructuredContent(version) {
            result["structuredContent"] = structured
        }
        return .object(result)
    }

    /// The start of a line that could not be read, for the error that quotes it.
    private static func excerpt(_ line: String) -> String {
        line.count > 80 ? String(line.prefix(80)) + "…" : line
    }
}
