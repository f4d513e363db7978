import Foundation
import Synchronization

/// One TCP connection of the plain-`http` transport: resolves the host, connects, sends and
/// receives with blocking calls on the thread that owns it, and closes its descriptor when that
/// thread is done.
///
/// Blocking calls cost no CPU while they wait, which is why this exists (see
/// `SocketHTTPTransport`). Every wait is bounded by the timeout (`SO_RCVTIMEO`, `SO_SNDTIMEO`,
/// which Linux also applies to `connect`). `cancel()` may come from any thread: it shuts the
/// socket down, which wakes a blocked receive at once; the descriptor is closed only under the
/// same lock, so a late `cancel()` never shuts down a descriptor number the system has since
/// given to another file.
final class SocketConnection: Sendable {
    private struct State {
        var descriptor: Int32 = -1
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Connects to `host`:`port` (a name or an address; every address the name resolves to is
    /// tried in turn), waiting at most `connectTimeout` for each, then sets `timeout` for every
    /// later send and receive.
    func connect(host: String, port: Int, connectTimeout: Duration, timeout: Duration) throws(HTTPFailure) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw .cannotConnect("\(host) does not resolve (\(String(cString: gai_strerror(resolved))))")
        }
        defer { freeaddrinfo(list) }
        var reasons: [String] = []
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate?.pointee {
            candidate = address.ai_next
            let descriptor = socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), address.ai_protocol)
            guard descriptor >= 0 else {
                reasons.append("socket: \(Self.lastError)")
                continue
            }
            let published = state.withLock { state -> Bool in
                guard !state.cancelled else { return false }
                state.descriptor = descriptor
                return true
            }
            guard published else {
                Glibc.close(descriptor)
                throw .cancelled
            }
            Self.setTimeout(descriptor, connectTimeout)
            if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 {
                Self.setTimeout(descriptor, timeout)
                var on: Int32 = 1
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                return
            }
            let reason = errno == EINPROGRESS || errno == EAGAIN ? "no answer within \(connectTimeout)" : Self.lastError
            reasons.append(reason)
            close()
            if state.withLock({ $0.cancelled }) { throw .cancelled }
        }
        throw .cannotConnect("\(host):\(port): \(reasons.uniquedJoined)")
    }

    /// Sends all of `bytes`. MSG_NOSIGNAL: a server that closed the connection is an error
    /// here, not a SIGPIPE that ends the process.
    func send(_ bytes: [UInt8]) throws(HTTPFailure) {
        var sent = 0
        while sent < bytes.count {
            let descriptor = try openDescriptor()
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
                continue
            }
            if count < 0 && errno == EINTR { continue }
            throw failure(count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .timedOut : .connectionLost("send: \(Self.lastError)"))
        }
    }

    /// Up to `buffer.count` bytes as they arrive; 0 when the server has closed its side.
    func receive(into buffer: inout [UInt8]) throws(HTTPFailure) -> Int {
        while true {
            let descriptor = try openDescriptor()
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 {
                // a shut-down socket reads as closed: say it was the cancellation
                if count == 0, state.withLock({ $0.cancelled }) { throw .cancelled }
                return count
            }
            if errno == EINTR { continue }
            throw failure(errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .connectionLost("recv: \(Self.lastError)"))
        }
    }

    /// Ends the connection from any thread: a blocked send or receive returns at once.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if state.descriptor >= 0 { shutdown(state.descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Closes the descriptor (the owning thread calls it when done).
    func close() {
        state.withLock { state in
            if state.descriptor >= 0 { Glibc.close(state.descriptor) }
            state.descriptor = -1
        }
    }

    deinit { close() }

    private func openDescriptor() throws(HTTPFailure) -> Int32 {
        let (descriptor, cancelled) = state.withLock { ($0.descriptor, $0.cancelled) }
        if cancelled { throw .cancelled }
        guard descriptor >= 0 else { throw .connectionLost("the connection is closed") }
        return descriptor
    }

    /// `error`, unless the connection was cancelled, which is what made it fail.
    private func failure(_ error: HTTPFailure) -> HTTPFailure {
        state.withLock { $0.cancelled } ? .cancelled : error
    }

    private static func setTimeout(_ descriptor: Int32, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var limit = timeval(tv_sec: Int(max(0, seconds)), tv_usec: Int(attoseconds / 1_000_000_000_000))
        if limit.tv_sec == 0 && limit.tv_usec == 0 { limit.tv_usec = 1000 }   // zero would mean "no limit"
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}

private extension Array where Element == String {
    /// The distinct reasons, in order, joined: a name with an IPv4 and an IPv6 address that
    /// both refuse says "Connection refused" once.
    var uniquedJoined: String {
        var seen: Set<String> = []
        return filter { seen.insert($0).inserted }.joined(separator: "; ")
    }
}
