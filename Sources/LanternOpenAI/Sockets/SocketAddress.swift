import Glibc

/// An address to listen on: an IPv4 or IPv6 literal (or `localhost`) and a port. It is parsed
/// before a model or an index is opened, so a typo fails at once, and it says whether it is
/// loopback, because a server reachable from elsewhere must demand an API key.
public struct SocketAddress: Sendable, CustomStringConvertible {
    /// The literal as parsed (`localhost` is 127.0.0.1).
    public let host: String
    /// 0 asks the system for a free port (`ListeningSocket.port` says which).
    public let port: UInt16
    let family: Int32
    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    private let bytes: [UInt8]

    public init(host: String, port: UInt16) throws(SocketError) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            family = AF_INET
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, literal, &v6) == 1 {
            family = AF_INET6
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            throw .invalidAddress(host)
        }
        self.host = literal
        self.port = port
    }

    private init(host: String, port: UInt16, family: Int32, bytes: [UInt8]) {
        self.host = host
        self.port = port
        self.family = family
        self.bytes = bytes
    }

    /// The same host on `port` (the one the system chose for port 0).
    func on(port: UInt16) -> SocketAddress {
        SocketAddress(host: host, port: port, family: family, bytes: bytes)
    }

    /// 127.0.0.0/8, ::1, or an IPv4-mapped 127.x: reachable from this machine only.
    public var isLoopback: Bool {
        if family == AF_INET { return bytes[0] == 127 }
        let mappedIPv4 = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return bytes == Array(repeating: 0, count: 15) + [1] || (mappedIPv4 && bytes[12] == 127)
    }

    /// `host:port`, with an IPv6 host in brackets as a URL writes it.
    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Calls `body` with this address as the `sockaddr` that `bind` takes.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        if family == AF_INET {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &address.sin_addr) { $0.copyBytes(from: bytes) }
            return Self.withGeneric(&address, body)
        }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = port.bigEndian
        withUnsafeMutableBytes(of: &address.sin6_addr) { $0.copyBytes(from: bytes) }
        return Self.withGeneric(&address, body)
    }

    /// `address` (a `sockaddr_in` or `sockaddr_in6`) seen as the generic `sockaddr`, with its size.
    private static func withGeneric<Address, Result>(_ address: inout Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }
}
