import Glibc

/// One client's TCP connection; owns its descriptor and closes it when released. Reads and
/// writes block with a timeout, so a client that stops sending or reading frees its thread
/// instead of holding it forever.
public final class ConnectedSocket: Sendable {
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Makes every later receive and send fail with `.timedOut` after `seconds` without progress.
    func setTimeout(seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Up to `maximum` bytes as they arrive; empty when the client has closed its side.
    func receive(maximum: Int) throws(SocketError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno == EINTR { continue }
            throw errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .lastError("recv")
        }
    }

    /// Writes all of `bytes`. MSG_NOSIGNAL: a client that went away is an error here, not a
    /// SIGPIPE that ends the whole server.
    func send(_ bytes: [UInt8]) throws(SocketError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count >= 0 {
                sent += count
            } else if errno != EINTR {
                throw errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .lastError("send")
            }
        }
    }

    deinit { close(descriptor) }
}
