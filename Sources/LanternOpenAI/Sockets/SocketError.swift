import Glibc

/// A socket call that failed, with the call and the system's reason, so a port in use or a
/// refused address reads as such instead of an errno number.
public enum SocketError: Error, Sendable, CustomStringConvertible {
    /// `--host` is no IPv4 or IPv6 address.
    case invalidAddress(String)
    /// `call` failed with `code` (errno).
    case system(call: String, code: Int32)
    /// The peer sent nothing, or took nothing, for the socket's timeout.
    case timedOut

    public var description: String {
        switch self {
        case .invalidAddress(let host):
            "'\(host)' is not an IP address (give one such as 127.0.0.1, ::1 or 0.0.0.0, or localhost)"
        case .system(let call, let code):
            "\(call) failed: \(String(cString: strerror(code)))"
        case .timedOut:
            "the client sent or took nothing for too long"
        }
    }

    /// The failure of `call` just now, from `errno`.
    static func lastError(_ call: String) -> SocketError {
        .system(call: call, code: errno)
    }
}
