/// Why an HTTP exchange produced no answer. The remote model turns each into an
/// `OpenAICompatibleModelError` that names the server and the request.
package enum HTTPFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// No connection: the name did not resolve, nothing listens there, the network is down.
    case cannotConnect(String)
    /// The TLS handshake failed (an untrusted or mismatched certificate, for one).
    case secureConnectionFailed(String)
    /// Nothing arrived for the whole timeout.
    case timedOut
    /// The connection broke, or the answer was not HTTP.
    case connectionLost(String)
    /// The request's task was cancelled.
    case cancelled
    /// The URL is not one this client speaks (`http://` or `https://` with a host).
    case unsupportedURL(String)

    package var description: String {
        switch self {
        case .cannotConnect(let reason): "cannot connect: \(reason)"
        case .secureConnectionFailed(let reason): "the TLS connection failed: \(reason)"
        case .timedOut: "no answer within the timeout"
        case .connectionLost(let reason): "the connection failed: \(reason)"
        case .cancelled: "cancelled"
        case .unsupportedURL(let url): "\(url) is not an http:// or https:// URL with a host"
        }
    }
}
