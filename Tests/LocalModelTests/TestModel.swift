import Foundation
import LocalModel

/// The real model the tests load once: the default (SmolLM2-135M, installed by
/// scripts/setup.sh), or the file $LANTERN_TEST_MODEL names, which is how scripts/test.sh runs
/// the generating suites again with another panel model (Qwen2.5-Coder-0.5B): they assert what
/// Lantern guarantees, so they must hold with any model. Every test target that loads a model
/// reads the same variable.
enum TestModel {
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["LANTERN_TEST_MODEL"], !path.isEmpty { return URL(fileURLWithPath: path) }
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
