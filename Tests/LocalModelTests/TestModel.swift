import Foundation
import LocalModel

/// The real default model, installed by scripts/setup.sh, loaded once for all tests.
enum TestModel {
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["LANTERN_TEST_MODEL"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("models/SmolLM2-135M-Instruct.Q4_1.gguf")
    }()

    private static let loaded = Result { () throws(LocalModelError) -> LocalModel in
        try LocalModel(contentsOf: url, configuration: .init(threads: 2))
    }

    static func shared() throws -> LocalModel { try loaded.get() }

    /// Collects a generation stream into its text and summary.
    static func collect(_ stream: AsyncThrowingStream<GenerationEvent, any Error>) async throws -> (String, GenerationSummary?) {
        var text = ""
        var summary: GenerationSummary?
        for try await event in stream {
            switch event {
            case .text(let piece): text += piece
            case .finished(let done): summary = done
            }
        }
        return (text, summary)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
