import Foundation

/// Loopback ports for tests that start servers, or need an address where none listens.
public enum LoopbackPort {
    /// A port nothing listens on now: the kernel's pick for a socket bound to port 0 and closed.
    public static func free() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard bound == 0, named == 0 else { throw LoopbackPortError(reason: String(cString: strerror(errno))) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// No loopback port could be had (bind or getsockname failed).
public struct LoopbackPortError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "no free loopback port: \(reason)" }
}
