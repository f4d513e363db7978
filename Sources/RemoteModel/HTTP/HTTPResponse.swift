import Foundation

/// An answer whose head has arrived and whose body is still arriving: the status, the headers
/// (names lowercased) and the body's bytes as they come, so a stream of server-sent events can
/// be read while the server is still writing it. Dropping the body, or cancelling the task that
/// reads it, closes the connection.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: AsyncThrowingStream<[UInt8], any Error>

    /// The whole body, up to `limit` bytes (more is a `connectionLost` failure: no answer of a
    /// server's JSON API is that long).
    package func collect(limit: Int = 64 << 20) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(contentsOf: chunk)
            guard data.count <= limit else { throw HTTPFailure.connectionLost("the answer is longer than \(limit) bytes") }
        }
        return data
    }
}
