import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// HTTP over URLSession, for `https://` URLs: FoundationNetworking (libcurl on Linux) does
/// the TLS, with the system's certificate store and host-name checks.
///
/// It costs a core while it waits (see `SocketHTTPTransport`, which plain `http` uses
/// instead); for a server on another machine that core is this machine's, not the server's,
/// so answers are not slower, only this process busier. The body arrives through the data
/// delegate, so server-sent events stream here too.
final class URLSessionHTTPTransport: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the continuations are only touched under `lock`; URLSession calls the
    // delegate on its own serial queue.
    private struct State {
        var head: CheckedContinuation<HTTPResponse, any Error>?
        var body: AsyncThrowingStream<[UInt8], any Error>.Continuation?
    }

    private let lock = Mutex(State())

    /// Sends `request`; returns when the head has arrived. `timeout` is URLSession's: the
    /// longest time with no data.
    static func open(_ request: HTTPRequest, timeout: Duration) async throws -> HTTPResponse {
        let transport = URLSessionHTTPTransport()
        let session = URLSession(configuration: .ephemeral, delegate: transport, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest(request, timeout: timeout))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<HTTPResponse, any Error>) in
                transport.lock.withLock { $0.head = head }
                task.resume()
                // the session holds its delegate until it is invalidated, after the task ends
                session.finishTasksAndInvalidate()
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The whole exchange, the calling thread waiting on a semaphore (URLSession answers on its
    /// own threads, so the wait cannot starve it).
    static func sendWaiting(_ request: HTTPRequest, timeout: Duration) throws(HTTPFailure) -> (status: Int, body: Data) {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<(status: Int, body: Data), HTTPFailure>>(.failure(.connectionLost("no answer")))
        let session = URLSession(configuration: .ephemeral)
        let task = session.dataTask(with: urlRequest(request, timeout: timeout)) { data, response, error in
            outcome.withLock { outcome in
                if let error {
                    outcome = .failure(failure(error))
                } else {
                    outcome = .success(((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data()))
                }
            }
            done.signal()
        }
        task.resume()
        session.finishTasksAndInvalidate()
        done.wait()
        return try outcome.withLock { $0 }.get()
    }

    private static func urlRequest(_ request: HTTPRequest, timeout: Duration) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        continuation.onTermination = { _ in dataTask.cancel() }
        let head = lock.withLock { state in
            state.body = continuation
            defer { state.head = nil }
            return state.head
        }
        head?.resume(returning: HTTPResponse(status: http?.statusCode ?? 0, headers: headers, body: stream))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        _ = lock.withLock { $0.body }?.yield(Array(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (head, body) = lock.withLock { state in
            defer { state = State() }
            return (state.head, state.body)
        }
        let failure = error.map(Self.failure)
        if let head {
            head.resume(throwing: failure ?? HTTPFailure.connectionLost("the answer had no head"))
        } else if let failure {
            body?.finish(throwing: failure)
        } else {
            body?.finish()
        }
    }

    /// URLSession's error as the transport's.
    private static func failure(_ error: any Error) -> HTTPFailure {
        guard let error = error as? URLError else { return .connectionLost("\(error)") }
        let reason = error.localizedDescription
        switch error.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet: return .cannotConnect(reason)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
             .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired:
            return .secureConnectionFailed(reason)
        case .unsupportedURL, .badURL: return .unsupportedURL(reason)
        default:
            // on Linux a certificate libcurl refuses comes as code -1 with libcurl's message
            // ("SSL certificate problem: self-signed certificate")
            let lowered = reason.lowercased()
            return ["ssl", "certificate", "tls"].contains(where: lowered.contains) ? .secureConnectionFailed(reason) : .connectionLost(reason)
        }
    }
}
