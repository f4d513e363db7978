import Foundation

/// A minimal HTTP/1.1 client for the harness's own llama-server on 127.0.0.1: one request per
/// connection (`Connection: close`), blocking reads on a thread of its own.
///
/// URLSession on Linux kept the harness's threads busy (about 1.5 cores) for as long as it
/// waited for an answer, which on this 2-core machine slowed the measured server's generation
/// from about 130 to 35 tokens/s and made the peer look slower than it is. A thread blocked in
/// recv(2) costs no CPU.
enum LocalHTTP {
    struct Response {
        var status: Int
        var body: Data
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// No answer arrived within the timeout.
        var timedOut = false
    }

    /// Sends one request to 127.0.0.1:`port` and waits up to `timeout` seconds for the answer.
    static func request(port: Int, method: String, path: String, json body: Data? = nil, timeout: Double) async throws -> Response {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try perform(port: port, method: method, path: path, body: body, timeout: timeout) })
            }
        }
    }

    private static func perform(port: Int, method: String, path: String, body: Data?, timeout: Double) throws -> Response {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(socketDescriptor) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int(timeout.truncatingRemainder(dividingBy: 1) * 1_000_000))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }

        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let message = Data((head + "\r\n").utf8) + (body ?? Data())
        try message.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws in
            guard let base = buffer.baseAddress else { return }
            var sent = 0
            while sent < buffer.count {
                let count = send(socketDescriptor, base + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw Failure(description: "sending to 127.0.0.1:\(port) failed: \(String(cString: strerror(errno)))") }
                sent += count
            }
        }

        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(socketDescriptor, &chunk, chunk.count, 0)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw Failure(description: "127.0.0.1:\(port) did not answer \(method) \(path) within \(Int(timeout)) s", timedOut: true)
                }
                throw Failure(description: "reading from 127.0.0.1:\(port) failed: \(String(cString: strerror(errno)))")
            }
            received.append(contentsOf: chunk[..<count])
        }
        guard let separator = received.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "127.0.0.1:\(port) sent no complete HTTP header (\(received.count) bytes)")
        }
        let headers = String(decoding: received[..<separator.lowerBound], as: UTF8.self)
        let statusLine = headers.split(separator: "\r\n").first ?? ""
        let status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let payload = Data(received[separator.upperBound...])
        let chunked = headers.lowercased().contains("transfer-encoding: chunked")
        return Response(status: status, body: chunked ? try joinChunks(payload) : payload)
    }

    /// The body of a `Transfer-Encoding: chunked` answer, without the chunk sizes.
    private static func joinChunks(_ data: Data) throws -> Data {
        var body = Data()
        var index = data.startIndex
        let lineEnd = Data("\r\n".utf8)
        while let end = data.range(of: lineEnd, in: index..<data.endIndex) {
            let sizeText = String(decoding: data[index..<end.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw Failure(description: "malformed chunk size \"\(sizeText)\" in an HTTP answer")
            }
            if size == 0 { return body }
            let start = end.upperBound
            guard data.distance(from: start, to: data.endIndex) >= size else { throw Failure(description: "truncated HTTP chunk") }
            let stop = data.index(start, offsetBy: size)
            body.append(data[start..<stop])
            index = data.index(stop, offsetBy: 2, limitedBy: data.endIndex) ?? data.endIndex
        }
        throw Failure(description: "an HTTP answer ended inside its chunks")
    }
}
