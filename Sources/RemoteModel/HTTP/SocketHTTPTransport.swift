import Foundation

/// HTTP/1.1 over a plain socket, for `http://` URLs: one request per connection
/// (`Connection: close`), read and written with blocking calls on a thread of its own.
///
/// Why not URLSession: on Linux, FoundationNetworking keeps a core busy for as long as it waits
/// for an answer (measured with Swift 6.3: 4.8 s of CPU over a 5 s wait, whether the body was
/// awaited whole or streamed through a delegate). On a 2-core machine that slowed a llama-server
/// on the same machine from about 130 to 35 tokens/s, and it takes the core from this process's
/// own work (the search tool's SQLite) for every round of every question. A thread blocked in
/// recv(2) costs nothing. `https://` goes through `URLSessionHTTPTransport`, which pays that
/// cost, because TLS is not worth writing again here.
enum SocketHTTPTransport {
    /// The most a connection attempt may take, whatever the request's timeout: a server that
    /// is down should fail at once, not after a generation's allowance.
    static let connectTimeout: Duration = .seconds(15)

    /// Sends `request` and returns once the answer's head has arrived; the body follows in the
    /// response's stream. Cancelling the task (before the head, or while reading the body)
    /// closes the connection.
    static func open(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        guard let host = request.url.host, !host.isEmpty else { throw HTTPFailure.unsupportedURL(request.url.absoluteString) }
        let port = request.url.port ?? 80
        let connection = SocketConnection()
        let message = Self.message(request, host: host, port: port)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<HTTPResponse, any Error>) in
                Thread.detachNewThread {
                    exchange(message, host: host, port: port, timeout: timeout, over: connection, head: head)
                }
            }
        } onCancel: {
            connection.cancel()
        }
    }

    /// The whole exchange on the calling thread: the status and the body.
    static func sendWaiting(_ request: HTTPRequest, timeout: Duration) throws(HTTPFailure) -> (status: Int, body: Data) {
        guard let host = request.url.host, !host.isEmpty else { throw .unsupportedURL(request.url.absoluteString) }
        let port = request.url.port ?? 80
        let connection = SocketConnection()
        defer { connection.close() }
        try connection.connect(host: host, port: port, connectTimeout: min(timeout, connectTimeout), timeout: timeout)
        try connection.send(message(request, host: host, port: port))
        var reader = Reader(connection: connection)
        let (status, headers) = try reader.head()
        var body = Data()
        try reader.body(headers: headers) { body.append(contentsOf: $0) }
        return (status, body)
    }

    /// The request's bytes: head and body.
    private static func message(_ request: HTTPRequest, host: String, port: Int) -> [UInt8] {
        var target = request.url.path.isEmpty ? "/" : request.url.path
        if let query = request.url.query { target += "?" + query }
        let hostHeader = host.contains(":") ? "[\(host)]" : host
        var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(hostHeader)\(request.url.port.map { ":\($0)" } ?? "")\r\n"
        head += "Connection: close\r\nAccept-Encoding: identity\r\n"
        for (name, value) in request.headers { head += "\(name): \(value)\r\n" }
        if let body = request.body { head += "Content-Length: \(body.count)\r\n" }
        return Array((head + "\r\n").utf8) + (request.body.map { Array($0) } ?? [])
    }

    /// The whole exchange, on the connection's own thread: connect, send, read the head and
    /// hand it over, then read the body into the response's stream until it ends.
    private static func exchange(_ message: [UInt8], host: String, port: Int, timeout: Duration, over connection: SocketConnection,
                                 head: CheckedContinuation<HTTPResponse, any Error>) {
        defer { connection.close() }
        var body: AsyncThrowingStream<[UInt8], any Error>.Continuation?
        do {
            try connection.connect(host: host, port: port, connectTimeout: min(timeout, connectTimeout), timeout: timeout)
            try connection.send(message)
            var reader = Reader(connection: connection)
            let (status, headers) = try reader.head()
            let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
            continuation.onTermination = { _ in connection.cancel() }
            body = continuation
            head.resume(returning: HTTPResponse(status: status, headers: headers, body: stream))
            try reader.body(headers: headers) { continuation.yield($0) }
            continuation.finish()
        } catch {
            if let body { body.finish(throwing: error) } else { head.resume(throwing: error) }
        }
    }

    /// Reads one answer from a connection: the head, then the body in its framing.
    private struct Reader {
        let connection: SocketConnection
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)
        /// Bytes read past the head: the body's start.
        private var pending: [UInt8] = []

        init(connection: SocketConnection) { self.connection = connection }

        /// The status and the headers (names lowercased); informational (1xx) answers are skipped.
        mutating func head() throws(HTTPFailure) -> (Int, [String: String]) {
            while true {
                var received: [UInt8] = pending
                pending = []
                while true {
                    if let end = Self.headEnd(in: received) {
                        pending = Array(received[end...])
                        received.removeSubrange(end...)
                        break
                    }
                    guard received.count < 64 << 10 else { throw .connectionLost("an HTTP head longer than 64 KiB") }
                    let count = try connection.receive(into: &buffer)
                    guard count > 0 else {
                        throw .connectionLost(received.isEmpty ? "the server closed the connection without answering" : "the answer ended inside its head")
                    }
                    received += buffer[..<count]
                }
                let lines = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")
                let statusWords = (lines.first ?? "").split(separator: " ")
                guard statusWords.count >= 2, statusWords[0].hasPrefix("HTTP/"), let status = Int(statusWords[1]) else {
                    throw .connectionLost("the answer is not HTTP: \(lines.first?.prefix(80) ?? "")")
                }
                if (100..<200).contains(status) { continue }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                return (status, headers)
            }
        }

        /// Hands the body to `deliver` as it arrives: chunked, of a `Content-Length`, or up to
        /// the end of the connection.
        mutating func body(headers: [String: String], deliver: ([UInt8]) -> Void) throws(HTTPFailure) {
            if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                var decoder = ChunkedBodyDecoder()
                var bytes = pending
                while true {
                    let decoded = try decoder.decode(bytes)
                    if !decoded.isEmpty { deliver(decoded) }
                    if decoder.isComplete { return }
                    let count = try connection.receive(into: &buffer)
                    guard count > 0 else { throw .connectionLost("the answer ended inside its chunks") }
                    bytes = Array(buffer[..<count])
                }
            }
            var remaining = headers["content-length"].flatMap { Int($0) }
            var bytes = pending
            while true {
                if let left = remaining { bytes = Array(bytes.prefix(left)) }
                if !bytes.isEmpty { deliver(bytes) }
                if let left = remaining {
                    remaining = left - bytes.count
                    if remaining == 0 { return }
                }
                let count = try connection.receive(into: &buffer)
                if count == 0 {
                    guard remaining == nil else { throw .connectionLost("the answer ended \(remaining ?? 0) bytes short of its length") }
                    return
                }
                bytes = Array(buffer[..<count])
            }
        }

        /// Where the body starts: after the first empty line.
        private static func headEnd(in bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 3..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
                return index + 1
            }
            return nil
        }
    }
}
