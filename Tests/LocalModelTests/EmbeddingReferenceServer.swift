import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LocalModel

/// Debian's `llama-server --embeddings` on the embedding GGUF: llama.cpp's own vectors for a
/// text, which Lantern's must agree with.
///
/// The server runs under `timeout`, so it ends by itself even if the test process dies before
/// `stop()`; a test stops it when done. `timeout` leads a process group of its own with the
/// server in it, and `stop()` kills that group (llama-server may leave a SIGTERM pending while
/// idle).
final class EmbeddingReferenceServer: @unchecked Sendable {
    /// How long the server may live at most (a test asks it a few questions).
    static let lifetime = 120
    let port: Int
    private let process: Process
    private let logURL: URL

    init(model: URL) async throws {
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-embedding-server-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--signal=KILL", String(Self.lifetime), "/usr/bin/llama-server", "-m", model.path, "--embeddings",
                             "--host", "127.0.0.1", "--port", "0", "-t", "2", "-np", "1", "--no-webui"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, process.isRunning {
            let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on http://127.0.0.1:"), let port = Int(text[range.upperBound...].prefix { $0.isNumber }),
               (try? await Self.send(port: port, path: "/health", body: nil))?.status == 200 {
                self.port = port
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        kill(-process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw ReferenceFailure("llama-server --embeddings did not start; its log: \((try? String(contentsOf: logURL, encoding: .utf8)) ?? "")")
    }

    /// llama-server's vector for `text` (normalised to unit length, its default).
    func embedding(_ text: String) async throws -> [Float] {
        let body = try JSONSerialization.data(withJSONObject: ["content": text])
        let (status, data) = try await Self.send(port: port, path: "/embedding", body: body)
        guard status == 200, let answer = try JSONSerialization.jsonObject(with: data) as? [[String: Any]],
              let rows = answer.first?["embedding"] as? [[Double]], let vector = rows.first else {
            throw ReferenceFailure("llama-server answered \(status): \(String(decoding: data, as: UTF8.self))")
        }
        return vector.map(Float.init)
    }

    func stop() {
        kill(-process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: logURL)
    }

    private static func send(port: Int, path: String, body: Data?) async throws -> (status: Int, data: Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.timeoutInterval = 30
        if let body {
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    struct ReferenceFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
