import LocalModel

/// A JSON-RPC error response's `error`: a code from the JSON-RPC 2.0 specification, which MCP
/// uses as it is, and a message that says what was wrong with the request, so a client's log
/// shows the fix rather than a bare code.
public struct JSONRPCError: Error, Sendable, CustomStringConvertible {
    public let code: Int
    public let message: String

    /// The line is not JSON.
    static func parseError(_ message: String) -> Self { Self(code: -32700, message: message) }
    /// The JSON is not a request or notification MCP accepts (or not now: before `initialize`).
    static func invalidRequest(_ message: String) -> Self { Self(code: -32600, message: message) }
    /// No method of that name; MCP's spelling of the message, with the name.
    static func methodNotFound(_ method: String) -> Self { Self(code: -32601, message: "Method not found: \(method)") }
    /// The method exists but its params are wrong: a missing name, an unknown tool.
    static func invalidParams(_ message: String) -> Self { Self(code: -32602, message: message) }
    /// The server could not do what was asked for a reason of its own (the index did not open).
    static func internalError(_ message: String) -> Self { Self(code: -32603, message: message) }

    var json: JSONValue { ["code": .int(code), "message": .string(message)] }

    public var description: String { "\(message) (JSON-RPC error \(code))" }
}
