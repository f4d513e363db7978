import Foundation

/// One HTTP/1.1 request as read off a connection: what the server routes on and the body.
struct HTTPRequest: Sendable {
    let method: String
    /// The target without its query string (`/v1/models`).
    let path: String
    /// Header names in lower case; a repeated header keeps its last value.
    let headers: [String: String]
    let body: [UInt8]

    /// The token of an `Authorization: Bearer TOKEN` header.
    var bearerToken: String? {
        guard let value = headers["authorization"] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }
}
