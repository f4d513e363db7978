import Foundation

/// A response written whole (status, headers, body), or the head of a stream whose body
/// follows. Every response closes the connection (`Connection: close`): one request per
/// connection keeps the server's reading simple, and clients open the next one themselves.
struct HTTPResponse: Sendable {
    let status: Int
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []

    /// `value` as a JSON body; a value that cannot be encoded is a 500 in OpenAI's shape.
    static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(try encoder.encode(value)))
        } catch {
            return OpenAIError.server("the response could not be encoded as JSON: \(error)").response
        }
    }

    /// Status line, headers, the body's length, and the body.
    var bytes: [UInt8] {
        Self.head(status: status, headers: headers + [("Content-Length", String(body.count))]) + body
    }

    /// The status line and headers, with `Connection: close`, up to the blank line.
    static func head(status: Int, headers: [(name: String, value: String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for (name, value) in headers + [("Connection", "close")] { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// The reason phrase of each status the server sends.
    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 503: "Service Unavailable"
        default: "Internal Server Error"
        }
    }
}
