import Foundation

/// The HTTP client of the remote model and of the benchmarks' llama-server peers: plain `http`
/// over blocking sockets (`SocketHTTPTransport`, which costs no CPU while it waits), `https`
/// over URLSession (`URLSessionHTTPTransport`, for TLS).
package enum HTTPClient {
    /// Sends `request` and returns once the answer's head has arrived; read the body from the
    /// response as it comes (server-sent events) or whole (`HTTPResponse.collect`). `timeout`
    /// bounds every wait for the server (to connect, for the head, between body bytes).
    package static func open(_ request: HTTPRequest, timeout: Duration) async throws(HTTPFailure) -> HTTPResponse {
        do {
            switch request.url.scheme?.lowercased() {
            case "http": return try await SocketHTTPTransport.open(request, timeout: timeout)
            case "https": return try await URLSessionHTTPTransport.open(request, timeout: timeout)
            default: throw HTTPFailure.unsupportedURL(request.url.absoluteString)
            }
        } catch let failure as HTTPFailure {
            throw failure
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .connectionLost("\(error)")
        }
    }

    /// `open`, then the whole body: the status and the bytes.
    package static func send(_ request: HTTPRequest, timeout: Duration) async throws(HTTPFailure) -> (status: Int, body: Data) {
        let response = try await open(request, timeout: timeout)
        do {
            return (response.status, try await response.collect())
        } catch let failure as HTTPFailure {
            throw failure
        } catch {
            throw .connectionLost("\(error)")
        }
    }

    /// `send` for callers that cannot await (a `TokenCounter` counts synchronously): the
    /// calling thread does the exchange itself and waits for the answer, never for a task of
    /// Swift's cooperative pool, which a waiting thread of that pool could starve.
    package static func sendWaiting(_ request: HTTPRequest, timeout: Duration) throws(HTTPFailure) -> (status: Int, body: Data) {
        switch request.url.scheme?.lowercased() {
        case "http": try SocketHTTPTransport.sendWaiting(request, timeout: timeout)
        case "https": try URLSessionHTTPTransport.sendWaiting(request, timeout: timeout)
        default: throw .unsupportedURL(request.url.absoluteString)
        }
    }
}
