/// The MCP revisions this server speaks, in the two eras the specification names
/// (basic/versioning of 2026-07-28): the handshake revisions, agreed once for the process
/// through `initialize`, and the per-request revisions, which every request names in its own
/// `_meta` and which have no handshake at all. The server speaks both at once, deciding per
/// request (`RequestRevision`).
enum ProtocolVersion {
    /// Revisions a request may name in `_meta["io.modelcontextprotocol/protocolVersion"]`,
    /// newest first; what `server/discover` lists in `supportedVersions`.
    static let perRequest = ["2026-07-28"]

    /// Revisions `initialize` agrees, newest first. Results carry `structuredContent` and
    /// tools an `outputSchema` from 2025-06-18 on; older revisions get the text alone.
    static let handshake = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// Every revision served, for the `supported` list of an unsupported-version error: a
    /// client whose per-request revisions share none with these can still fall back to
    /// `initialize` with a handshake revision named there.
    static var all: [String] { perRequest + handshake }

    /// The revision `initialize` answers to a client that asked for `requested`: the client's
    /// when it is a handshake revision this server knows, else the newest handshake revision
    /// (the client then decides whether it can go on), as the 2025-11-25 lifecycle says.
    /// `initialize` never agrees a per-request revision: those have no handshake.
    static func negotiate(_ requested: String) -> String {
        handshake.contains(requested) ? requested : handshake[0]
    }

    /// Whether revision `version` has structured tool results.
    static func hasStructuredContent(_ version: String) -> Bool {
        version >= "2025-06-18"
    }
}
