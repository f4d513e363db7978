import Glibc

/// A bound, listening TCP socket; owns its descriptor and closes it when released. Accepting
/// blocks, so it is called from a thread of its own, never from Swift's cooperative pool
/// (two cores give that pool two threads, which the answers need).
public final class ListeningSocket: Sendable {
    private let descriptor: Int32
    /// The address bound: its port is the one asked for, or the free one the system chose for port 0.
    public let address: SocketAddress

    /// Binds `address` and listens, with a backlog of `backlog` connections not yet accepted.
    public init(address: SocketAddress, backlog: Int32 = 128) throws(SocketError) {
        let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .lastError("socket") }
        // a restarted server may bind while the last one's connections sit in TIME_WAIT
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let failure: SocketError? = if address.withSocketAddress({ bind(descriptor, $0, $1) }) != 0 {
            .lastError("bind to \(address)")
        } else if listen(descriptor, backlog) != 0 {
            .lastError("listen on \(address)")
        } else {
            nil
        }
        if let failure {
            close(descriptor)
            throw failure
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        // sin_port and sin6_port sit at the same offset, right after the family
        let networkPort = withUnsafeBytes(of: &bound) { $0.load(fromByteOffset: MemoryLayout<sa_family_t>.size, as: UInt16.self) }
        self.descriptor = descriptor
        self.address = address.on(port: UInt16(bigEndian: networkPort))
    }

    /// The next connection; blocks until a client connects.
    public func accept() throws(SocketError) -> ConnectedSocket {
        while true {
            let connection = Glibc.accept(descriptor, nil, nil)
            if connection >= 0 {
                // accept4's SOCK_CLOEXEC is not in Glibc's Swift overlay
                _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                return ConnectedSocket(descriptor: connection)
            }
            // a signal, or a client that gave up while queued, is no reason to stop accepting
            if errno == EINTR || errno == ECONNABORTED { continue }
            throw .lastError("accept")
        }
    }

    deinit { close(descriptor) }
}
