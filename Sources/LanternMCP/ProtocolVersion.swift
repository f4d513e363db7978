/// The MCP revisions this server speaks through the `initialize` handshake, and how one is
/// agreed: the client's when this server knows it, else the newest this server has (the client
/// then decides whether it can go on), as the lifecycle section of the specification says.
enum ProtocolVersion {
    /// Newest first. Results carry `structuredContent` and tools an `outputSchema` from
    /// 2025-06-18 on; older revisions get the text alone.
    static let supported = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// The revision answered to a client that asked for `requested`.
    static func negotiate(_ requested: String) -> String {
        supported.contains(requested) ? requested : supported[0]
    }

    /// Whether revision `version` has structured tool results.
    static func hasStructuredContent(_ version: String) -> Bool {
        version >= "2025-06-18"
    }
}
