import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connect with a deadline, made before ggml is given a server: ggml's own connect
/// blocks without one (about two minutes against an address that drops packets), so an
/// unreachable server would hang the load instead of ending in an error.
enum RPCReachability {
    /// How long a server has to accept a connection.
    static let connectTimeout: Duration = .seconds(3)

    /// Nil when `server` accepts a TCP connection within `timeout`; otherwise why not.
    static func failure(connecting server: RPCServer, timeout: Duration = connectTimeout) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(server.host, String(server.port), &hints, &list)
        guard status == 0, let first = list else {
            return "the host name \(server.host) does not resolve (\(String(cString: gai_strerror(status))))"
        }
        defer { freeaddrinfo(list) }
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var reason = "no address to connect to"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            if let failure = connect(address.pointee, milliseconds: milliseconds) { reason = failure } else { return nil }
            entry = address.pointee.ai_next
        }
        return reason
    }

    private static func connect(_ address: addrinfo, milliseconds: Int32) -> String? {
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue), address.ai_protocol)
        guard socket >= 0 else { return "socket(): \(String(cString: strerror(errno)))" }
        defer { close(socket) }
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        var waiting = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&waiting, 1, milliseconds)
        if ready == 0 { return "no answer within \(milliseconds / 1000) s" }
        if ready < 0 { return "poll(): \(String(cString: strerror(errno)))" }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? nil : String(cString: strerror(error))
    }
}
