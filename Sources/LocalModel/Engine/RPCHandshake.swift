import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lantern's own connect and HELLO to an RPC server, with deadlines, before ggml is given it.
///
/// ggml 0.27's client has no deadline (its connect blocks about two minutes against an address
/// that drops packets, and a server busy with another client never answers its HELLO), and it
/// ends the process when the handshake fails, a server of another protocol version included.
/// Checking first turns each of those into a typed error that names the server.
enum RPCHandshake {
    /// How long a server has to accept the connection and to answer the HELLO.
    static let timeout: Duration = .seconds(3)

    /// The protocol this process's RPC backend speaks (`RPC_PROTO_MAJOR_VERSION` and
    /// `RPC_PROTO_MINOR_VERSION` of ggml-rpc.h in libggml-dev 0.27), and its HELLO layout:
    /// command 14 with 24 bytes of connection capabilities (zero: plain TCP), answered by
    /// major, minor, patch, a pad byte and the server's 24 bytes of capabilities.
    static let protocolMajor: UInt8 = 8
    static let protocolMinor: UInt8 = 0
    private static let helloCommand: UInt8 = 14
    private static let capabilitiesSize = 24

    enum Failure: Error {
        case unreachable(String)
        case otherVersion(String)
    }

    /// Connects, says HELLO and checks the version the server answers with.
    static func check(_ server: RPCServer, timeout: Duration = timeout) -> Failure? {
        let socket: Int32
        switch openConnection(to: server, timeout: timeout) {
        case .failure(let failure): return failure
        case .success(let connected): socket = connected
        }
        defer { close(socket) }
        var request: [UInt8] = [helloCommand]
        withUnsafeBytes(of: UInt64(capabilitiesSize).littleEndian) { request += $0 }
        request += [UInt8](repeating: 0, count: capabilitiesSize)
        guard send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            return .unreachable("it closed the connection before the handshake: \(String(cString: strerror(errno)))")
        }
        var size: UInt64 = 0
        guard recv(socket, &size, 8, Int32(MSG_WAITALL)) == 8 else {
            return .unreachable("it did not answer the handshake within \(timeout) (busy with another client, or not a ggml-rpc-server)")
        }
        let replySize = Int(UInt64(littleEndian: size))
        guard replySize >= 3, replySize <= 4096 else { return .otherVersion("unknown (a \(replySize)-byte handshake reply)") }
        var reply = [UInt8](repeating: 0, count: replySize)
        guard recv(socket, &reply, replySize, Int32(MSG_WAITALL)) == replySize else {
            return .unreachable("its handshake reply was cut short")
        }
        let version = "\(reply[0]).\(reply[1]).\(reply[2])"
        guard replySize == 4 + capabilitiesSize, reply[0] == protocolMajor, reply[1] <= protocolMinor else { return .otherVersion(version) }
        return nil
    }

    private static func openConnection(to server: RPCServer, timeout: Duration) -> Result<Int32, Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(server.host, String(server.port), &hints, &list)
        guard status == 0, let first = list else {
            return .failure(.unreachable("the host name \(server.host) does not resolve (\(String(cString: gai_strerror(status))))"))
        }
        defer { freeaddrinfo(list) }
        var reason = "no address to connect to"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            switch connectSocket(address.pointee, timeout: timeout) {
            case .success(let socket): return .success(socket)
            case .failure(let failure): reason = failure.reason
            }
            entry = address.pointee.ai_next
        }
        return .failure(.unreachable(reason))
    }

    private struct ConnectFailure: Error { let reason: String }

    /// A blocking socket connected within `timeout`, whose reads and writes time out too.
    private static func connectSocket(_ address: addrinfo, timeout: Duration) -> Result<Int32, ConnectFailure> {
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_NONBLOCK.rawValue), address.ai_protocol)
        guard socket >= 0 else { return .failure(ConnectFailure(reason: "socket(): \(String(cString: strerror(errno)))")) }
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { defer { close(socket) }; return .failure(ConnectFailure(reason: String(cString: strerror(errno)))) }
            var waiting = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&waiting, 1, milliseconds)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
            guard ready > 0, error == 0 else {
                close(socket)
                return .failure(ConnectFailure(reason: ready == 0 ? "no answer within \(timeout)" : String(cString: strerror(ready < 0 ? errno : error))))
            }
        }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) & ~Int32(O_NONBLOCK))
        var limit = timeval(tv_sec: Int(milliseconds / 1000), tv_usec: Int(milliseconds % 1000) * 1000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return .success(socket)
    }

    /// Whether `server` still accepts a TCP connection (no handshake: a server in the middle of
    /// a computation for this process would not answer one).
    static func accepts(_ server: RPCServer, timeout: Duration) -> Bool {
        guard case .success(let socket) = openConnection(to: server, timeout: timeout) else { return false }
        close(socket)
        return true
    }
}
