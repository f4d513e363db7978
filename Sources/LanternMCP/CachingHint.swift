/// The caching hints 2026-07-28 requires on a cacheable result (server/utilities/caching): how
/// long a client may consider it fresh, and whether a shared cache may hand it to others.
struct CachingHint: Sendable {
    enum Scope: String, Sendable {
        /// Nothing in the result is the user's.
        case `public`
        /// The result shows something of the user's data; caches stay per authorization context.
        case `private`
    }

    let ttlMs: Int
    let scope: Scope

    /// An hour, for both hints below: neither result changes while the server runs (the tool
    /// list is fixed once the index opens: `listChanged` is false), but a client may keep one
    /// across restarts of the same configuration, and by then the index may have been
    /// rebuilt with other attributes; an hour bounds how long it shows the old ones.
    private static let hour = 3_600_000

    /// `server/discover`: the server's name, version, capabilities and instructions, the same
    /// for every user.
    static let discovery = CachingHint(ttlMs: hour, scope: .public)
    /// `tools/list`: the tools' descriptions and schemas are made from the user's index.
    static let toolListing = CachingHint(ttlMs: hour, scope: .private)
}
