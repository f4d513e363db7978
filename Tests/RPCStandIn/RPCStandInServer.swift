import Foundation
import LocalModel
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for a ggml-rpc-server that a real one cannot play: one of another ggml release,
/// which answers the HELLO handshake with protocol 7.0.0 and nothing else; one that answers it
/// as this process's ggml expects (8.0.0) and closes the connection at the next command (a
/// server that dies while ggml asks for its devices); or one that takes connections and never
/// answers (a machine that hangs). The HELLO layout is what ggml 0.27's
/// client sends and expects (read off the wire between llama-bench and a real server): `0x0e`,
/// a 24-byte request of capabilities; a 28-byte reply whose first three bytes are the version.
public final class RPCStandInServer: @unchecked Sendable { // the socket is closed once, by stop()
    public enum Behaviour: Sendable { case otherVersion, diesAfterTheHandshake, silent }

    /// The listening socket could not be opened on loopback.
    public struct StartFailure: Error {}

    public let server: RPCServer
    private let listening: Int32

    public init(_ behaviour: Behaviour) throws {
        let listening = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listening = listening
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listening, $0, length) == 0 && listen(listening, 4) == 0 && getsockname(listening, $0, &length) == 0
            }
        }
        guard ready else { throw StartFailure() }
        server = RPCServer(host: "127.0.0.1", port: Int(UInt16(bigEndian: address.sin_port)))
        // silent: the kernel completes connections into the backlog; nobody accepts them
        guard behaviour != .silent else { return }
        let major: UInt8 = behaviour == .otherVersion ? 7 : 8
        let socket = listening
        Thread.detachNewThread {
            while true {
                let client = accept(socket, nil, nil)
                guard client >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 1 + 8 + 24)
                if recv(client, &request, request.count, Int32(MSG_WAITALL)) == request.count, request[0] == 0x0e {
                    var reply = [UInt8](repeating: 0, count: 8 + 28)
                    reply[0] = 28
                    reply[8] = major
                    _ = send(client, reply, reply.count, Int32(MSG_NOSIGNAL))
                    // the next command's first byte, then gone
                    var command: UInt8 = 0
                    if behaviour == .diesAfterTheHandshake { _ = recv(client, &command, 1, Int32(MSG_WAITALL)) }
                }
                close(client)
            }
        }
    }

    public func stop() {
        shutdown(listening, Int32(SHUT_RDWR))
        close(listening)
    }
}
