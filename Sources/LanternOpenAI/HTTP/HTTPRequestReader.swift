import Foundation

/// Reads one request off a connection within the server's bounds: a head of at most
/// `maximumHeadBytes`, a body of at most `maximumBodyBytes` sent with Content-Length. Anything
/// else is refused with the status a client can act on (400, 411, 413, 431), in OpenAI's shape.
struct HTTPRequestReader {
    let socket: ConnectedSocket
    let maximumBodyBytes: Int
    /// Request line and headers; an OpenAI client sends well under 2 KiB.
    static let maximumHeadBytes = 16 * 1024
    /// How much of a body over the bound is still read and dropped before the 413 is sent:
    /// a client writes its whole body before reading, and a connection closed on unread bytes
    /// resets, so the client would see a broken connection instead of the refusal.
    static let maximumDrainedBytes = 16 * 1024 * 1024

    /// The request; nil when the client closed the connection without sending one.
    func read() throws -> HTTPRequest? {
        var buffered: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            let bytes = try socket.receive(maximum: 4096)
            if bytes.isEmpty {
                if buffered.isEmpty { return nil }
                throw OpenAIError.badRequest("the connection closed in the middle of the request's headers")
            }
            buffered += bytes
            headEnd = Self.endOfHead(in: buffered)
            if headEnd == nil && buffered.count > Self.maximumHeadBytes { throw OpenAIError.headTooLarge(limit: Self.maximumHeadBytes) }
        }
        guard let headEnd else { return nil }
        let (method, path, headers) = try Self.parseHead(String(decoding: buffered[..<headEnd], as: UTF8.self))
        var body = Array(buffered[(headEnd + 4)...])
        if headers["transfer-encoding"] != nil { throw OpenAIError.lengthRequired }
        guard let lengthText = headers["content-length"] else {
            if method == "POST" { throw OpenAIError.lengthRequired }
            return HTTPRequest(method: method, path: path, headers: headers, body: [])
        }
        guard let length = Int(lengthText), length >= 0 else { throw OpenAIError.badRequest("Content-Length '\(lengthText)' is not a byte count") }
        if length > maximumBodyBytes {
            if length <= Self.maximumDrainedBytes { try drain(length - body.count) }
            throw OpenAIError.bodyTooLarge(length: length, limit: maximumBodyBytes)
        }
        // curl asks before sending a body over 1 KiB; the answer saves it a second's wait
        if headers["expect"]?.lowercased() == "100-continue" && body.count < length {
            try socket.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while body.count < length {
            let bytes = try socket.receive(maximum: min(65536, length - body.count))
            if bytes.isEmpty { throw OpenAIError.badRequest("the body ended after \(body.count) of its \(length) bytes") }
            body += bytes
        }
        return HTTPRequest(method: method, path: path, headers: headers, body: Array(body.prefix(length)))
    }

    /// Reads and drops `count` more bytes, or until the client stops sending.
    private func drain(_ count: Int) throws {
        var left = count
        while left > 0 {
            let bytes = try socket.receive(maximum: min(65536, left))
            if bytes.isEmpty { return }
            left -= bytes.count
        }
    }

    /// Where the blank line that ends the head starts.
    private static func endOfHead(in bytes: [UInt8]) -> Int? {
        let end: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= end.count else { return nil }
        return (0...(bytes.count - end.count)).first { bytes[$0..<($0 + end.count)].elementsEqual(end) }
    }

    /// The method, the path without its query, and the headers by lower-case name.
    private static func parseHead(_ head: String) throws -> (String, String, [String: String]) {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            throw OpenAIError.badRequest("'\(lines.first ?? "")' is not an HTTP/1.1 request line")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw OpenAIError.badRequest("header line '\(line)' has no ':'") }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let path = requestLine[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return (String(requestLine[0]), path, headers)
    }
}
