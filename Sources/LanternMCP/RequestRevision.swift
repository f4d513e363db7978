import LocalModel

/// The revision one request is served under, decided per request as 2026-07-28's versioning
/// page has a server that speaks both eras decide: a request whose `_meta` names a revision
/// (`io.modelcontextprotocol/protocolVersion`) is served statelessly under it, whatever came
/// before on the pipe; any other request is served under the revision `initialize` agreed.
enum RequestRevision: Sendable {
    /// Agreed once for the process by `initialize` (2025-11-25 and earlier).
    case agreed(String)
    /// Named by the request itself (2026-07-28).
    case declared(String)

    static let protocolVersionKey = "io.modelcontextprotocol/protocolVersion"
    static let clientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    var version: String {
        switch self {
        case .agreed(let version), .declared(let version): version
        }
    }

    /// The revision `params._meta` declares, or nil when it names none (a request of the
    /// handshake era; legacy clients put only `progressToken` there). A declaration is
    /// checked as the specification asks: the revision and the client's capabilities are
    /// required, and a request missing either is malformed (-32602); a revision this server
    /// does not serve per request is an `UnsupportedProtocolVersionError` (-32022).
    static func declared(in params: JSONValue) throws(JSONRPCError) -> RequestRevision? {
        guard let meta = params["_meta"] else { return nil }
        guard meta.objectValue != nil else {
            throw .invalidParams("params._meta must be an object, not \(meta.typeName)")
        }
        guard let declared = meta[protocolVersionKey] else { return nil }
        guard let version = declared.stringValue else {
            throw .invalidParams("params._meta[\"\(protocolVersionKey)\"] must be a string, not \(declared.typeName)")
        }
        guard let capabilities = meta[clientCapabilitiesKey] else {
            throw .invalidParams("params._meta needs \"\(clientCapabilitiesKey)\" beside \"\(protocolVersionKey)\": the client's capabilities for this request ({} for none)")
        }
        guard capabilities.objectValue != nil else {
            throw .invalidParams("params._meta[\"\(clientCapabilitiesKey)\"] must be an object, not \(capabilities.typeName)")
        }
        guard ProtocolVersion.perRequest.contains(version) else { throw .unsupportedProtocolVersion(version) }
        return .declared(version)
    }

    /// `fields` as a result of this revision. From 2026-07-28 on every result says its
    /// `resultType` ("complete": this server asks a client for nothing more) and names the
    /// server in `_meta`, since no handshake did; a cacheable one (`server/discover`,
    /// `tools/list`) also carries the caching hints `ttlMs` and `cacheScope`, which the
    /// specification requires on them. Handshake revisions have none of these fields.
    func result(_ fields: JSONObject, server: JSONValue, caching: CachingHint? = nil) -> JSONValue {
        guard case .declared = self else { return .object(fields) }
        var result = fields
        result["resultType"] = "complete"
        result["_meta"] = [Self.serverInfoKey: server]
        if let caching {
            result["ttlMs"] = .int(caching.ttlMs)
            result["cacheScope"] = .string(caching.scope.rawValue)
        }
        return .object(result)
    }
}
