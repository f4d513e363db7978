import LocalModel

/// A JSON-RPC error response's `error`: a code from the JSON-RPC 2.0 specification, which MCP
/// uses as it is, or one MCP defines, and a message that says what was wrong with the request,
/// so a client's log shows the fix rather than a bare code.
public struct JSONRPCError: Error, Sendable, CustomStringConvertible {
    public let code: Int
    public let message: String
    /// What a program needs to act on the error (the revisions to retry with); nil for most.
    public let data: JSONValue?

    init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The line is not JSON.
    static func parseError(_ message: String) -> Self { Self(code: -32700, message: message) }
    /// The JSON is not a request or notification MCP accepts.
    static func invalidRequest(_ message: String) -> Self { Self(code: -32600, message: message) }
    /// No method of that name; MCP's spelling of the message, with the name.
    static func methodNotFound(_ method: String) -> Self { Self(code: -32601, message: "Method not found: \(method)") }
    /// The method exists but its params are wrong: a missing name, an unknown tool, no
    /// revision (neither `_meta`'s nor one `initialize` agreed).
    static func invalidParams(_ message: String) -> Self { Self(code: -32602, message: message) }
    /// The server could not do what was asked for a reason of its own (the index did not open).
    static func internalError(_ message: String) -> Self { Self(code: -32603, message: message) }
    /// A request named a revision in `_meta` this server does not speak: 2026-07-28's
    /// `UnsupportedProtocolVersionError`, whose `data` lists the revisions to retry with.
    static func unsupportedProtocolVersion(_ requested: String) -> Self {
        Self(code: -32022,
             message: "Unsupported protocol version \(requested): name \(ProtocolVersion.perRequest.joined(separator: " or ")) in _meta, "
                 + "or send initialize for \(ProtocolVersion.handshake.joined(separator: ", "))",
             data: ["supported": .array(ProtocolVersion.all.map(JSONValue.string)), "requested": .string(requested)])
    }

    var json: JSONValue {
        var error: JSONObject = ["code": .int(code), "message": .string(message)]
        if let data { error["data"] = data }
        return .object(error)
    }

    public var description: String { "\(message) (JSON-RPC error \(code))" }
}
