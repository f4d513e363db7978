import Foundation
import LocalModel

/// An MCP server over stdio that serves Lantern tools to a client's model: `ask mcp`.
///
/// It speaks both eras of the protocol (`ProtocolVersion`), deciding per request
/// (`RequestRevision`). The handshake revisions (2025-11-25 and earlier): `initialize` agrees a
/// revision for the process and says the server has tools, then `tools/list`, `tools/call` and
/// `ping`. The stateless revision 2026-07-28: no handshake; every request names its revision
/// and the client's capabilities in `_meta`, `server/discover` says the revisions, capabilities
/// and identity, `tools/list` and `tools/call` are served under the revision the request names,
/// and every result carries `resultType` and the server's identity (no `ping`: it was
/// removed). In both, `notifications/cancelled` ends a call in flight (which then gets no
/// response, as the specification asks). Messages are JSON-RPC 2.0, one per line; a line that
/// is not JSON, a message that is not a request, an unknown method, a request naming no
/// revision or one not served get the JSON-RPC error for them, and the server reads on. A
/// tool's failure, a wrong argument included, is a result with `isError`, which the client
/// hands to its model to correct.
///
/// The tools come from `loadTools`, run once when serving starts: building an index can take
/// minutes, and a client gives up on a server that does not answer `initialize` or
/// `server/discover`, so those and `ping` are answered at once and `tools/list` and
/// `tools/call` wait for the tools (a cancelled call stops waiting). If they cannot be had,
/// those requests get the error.
public actor MCPServer {
    /// Who the server says it is (`initialize`'s `serverInfo`, every 2026-07-28 result's `_meta`),
    /// and the instructions a client may give its model.
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
    /// The handshake revision `initialize` agreed; nil before it. Requests that name their own
    /// revision in `_meta` neither need nor change it.
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

    /// Serves the messages in `lines` until they end (the client closed stdin), then answers
    /// the calls still in flight before returning: a client that writes its requests and closes
    /// its input (`printf … | ask mcp`) gets every answer, and one that wants to stop sooner
    /// cancels them or ends the process, as the stdio transport has it.
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
        for call in Array(inFlight.values) { await call.value }
        loading.cancel()
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
        // `initialize` selects the handshake era whatever its `_meta` holds (2026-07-28
        // basic/versioning: "An initialize request selects legacy semantics").
        if method == "initialize" {
            do {
                writer.respond(to: id, result: try initialize(params))
            } catch {
                writer.respond(to: id, error: error)
            }
            return
        }
        let declared: RequestRevision?
        do {
            declared = try RequestRevision.declared(in: params)
        } catch {
            writer.respond(to: id, error: error)
            return
        }
        switch method {
        case "server/discover":
            guard let declared else {
                writer.respond(to: id, error: Self.revisionMissing(method, handshake: false))
                return
            }
            writer.respond(to: id, result: declared.result(discovery, server: serverInfo, caching: .discovery))
        case "ping" where declared == nil:
            // The handshake revisions' ping, answered before initialize too; 2026-07-28 has none.
            writer.respond(to: id, result: [:])
        case "tools/list", "tools/call":
            guard let revision = declared ?? version.map(RequestRevision.agreed) else {
                writer.respond(to: id, error: Self.revisionMissing(method, handshake: true))
                return
            }
            guard inFlight[id] == nil else {
                writer.respond(to: id, error: .invalidRequest("request id \(id) is already in use by a request in flight"))
                return
            }
            inFlight[id] = Task { [tools, writer, log, serverInfo] in
                if await !tools.isResolved { log("request \(id) (\(method)) waits for the index to open") }
                do {
                    let listing = method == "tools/list"
                    let fields = listing
                        ? Self.list(try await tools.value(), version: revision.version)
                        : try await Self.call(params, tools: tools.value(), version: revision.version, log: log)
                    try Task.checkCancellation()
                    writer.respond(to: id, result: revision.result(fields, server: serverInfo, caching: listing ? .toolListing : nil))
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

    /// A request that names no revision in `_meta` when it needs one: 2026-07-28 requires the
    /// revision and the client's capabilities there, and a request without them is malformed
    /// (-32602). `handshake` says whether the method is also one of the handshake revisions',
    /// which `initialize` would have let the request do without them.
    private static func revisionMissing(_ method: String, handshake: Bool) -> JSONRPCError {
        .invalidParams("\(method) names no protocol revision: put \"\(RequestRevision.protocolVersionKey)\": \"\(ProtocolVersion.perRequest[0])\" "
            + "and \"\(RequestRevision.clientCapabilitiesKey)\" in params._meta"
            + (handshake ? ", or send initialize first (\(ProtocolVersion.handshake.joined(separator: ", ")))" : ""))
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

    /// `initialize`: agrees a handshake revision and says what the server has.
    private func initialize(_ params: JSONValue) throws(JSONRPCError) -> JSONValue {
        if let version { throw .invalidRequest("already initialized (protocol \(version)); initialize is sent once") }
        guard let requested = params["protocolVersion"]?.stringValue else {
            throw .invalidParams("initialize needs params.protocolVersion, the revision the client speaks (such as \"\(ProtocolVersion.handshake[0])\")")
        }
        let agreed = ProtocolVersion.negotiate(requested)
        version = agreed
        if agreed != requested { log("the client asked for protocol \(requested); answered with \(agreed)") }
        var result = offer
        result["protocolVersion"] = .string(agreed)
        result["serverInfo"] = serverInfo
        return .object(result)
    }

    /// `server/discover`'s fields: the revisions a request may name in `_meta` and what the
    /// server has. The handshake revisions are not listed: a request cannot name them.
    private var discovery: JSONObject {
        var result = offer
        result["supportedVersions"] = .array(ProtocolVersion.perRequest.map(JSONValue.string))
        return result
    }

    /// What the server has, as `initialize` and `server/discover` both say it: tools, whose
    /// list does not change, and the instructions a client may give its model.
    private var offer: JSONObject {
        var result: JSONObject = ["capabilities": ["tools": ["listChanged": false]]]
        if let instructions = identity.instructions { result["instructions"] = .string(instructions) }
        return result
    }

    /// Who the server is: `initialize`'s `serverInfo`, and from 2026-07-28 every result's `_meta`.
    private var serverInfo: JSONValue {
        ["name": .string(identity.name), "version": .string(identity.version)]
    }

    /// `tools/list`: every tool, with `outputSchema` from the revision that has structured results.
    private static func list(_ tools: [ServedTool], version: String) -> JSONObject {
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
                             log: @Sendable (String) -> Void) async throws -> JSONObject {
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
        return result
    }

    /// The start of a line that could not be read, for the error that quotes it.
    private static func excerpt(_ line: String) -> String {
        line.count > 80 ? String(line.prefix(80)) + "…" : line
    }
}
