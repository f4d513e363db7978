import Foundation
import LocalModel
import TestModelSupport

extension TestModel {
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
