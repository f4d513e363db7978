import LocalModel

/// One message a client sent, read from its JSON: a request (it has an id and wants a
/// response), a notification (no id, no response), or a response to a request of ours, which
/// this server never sends, so it is only logged.
enum JSONRPCMessage: Sendable {
    case request(id: JSONRPCID, method: String, params: JSONValue)
    case notification(method: String, params: JSONValue)
    case response(id: JSONValue)

    /// Reads `value` as JSON-RPC 2.0; an error names what is missing, with the id when it
    /// could be read, so the client can match the error to its request.
    init(_ value: JSONValue) throws(JSONRPCMessage.Invalid) {
        guard case .object(let object) = value else {
            throw Invalid(id: nil, error: .invalidRequest(value.arrayValue != nil
                ? "batches are not part of MCP: send one JSON-RPC message per line"
                : "a message is a JSON object, not \(value.typeName)"))
        }
        let rawID = object["id"]
        let id = rawID.flatMap(JSONRPCID.init)
        guard object["jsonrpc"]?.stringValue == "2.0" else {
            throw Invalid(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\""))
        }
        guard let method = object["method"] else {
            guard object["result"] != nil || object["error"] != nil else {
                throw Invalid(id: id, error: .invalidRequest("a request needs a \"method\" string"))
            }
            self = .response(id: rawID ?? .null)
            return
        }
        guard let name = method.stringValue else {
            throw Invalid(id: id, error: .invalidRequest("\"method\" must be a string, not \(method.typeName)"))
        }
        let params = object["params"] ?? [:]
        guard params.objectValue != nil else {
            throw Invalid(id: id, error: .invalidRequest("\"params\" must be an object, not \(params.typeName)"))
        }
        guard let rawID else {
            self = .notification(method: name, params: params)
            return
        }
        guard let id else {
            throw Invalid(id: nil, error: .invalidRequest("\"id\" must be a string or an integer, not \(rawID.typeName)"))
        }
        self = .request(id: id, method: name, params: params)
    }

    /// Why a message was refused, and its id when it had a readable one.
    struct Invalid: Error {
        let id: JSONRPCID?
        let error: JSONRPCError
    }
}
