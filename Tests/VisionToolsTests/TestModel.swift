import Foundation
import LocalModel

/// The real model, loaded once: the default (SmolLM2-135M), or the file $LANTERN_TEST_MODEL
/// names, as in every test target that loads one (scripts/test.sh runs the generating suites
/// again with Qwen2.5-Coder-0.5B this way; they assert guarantees, so any model must pass them).
enum TestModel {
    static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["LANTERN_TEST_MODEL"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("models/SmolLM2-135M-Instruct.Q4_1.gguf")
    }()
    private static let loaded = Result { () throws(LocalModelError) -> LocalModel in
        try LocalModel(contentsOf: url, configuration: .init(threads: 2))
    }
    static func shared() throws -> LocalModel { try loaded.get() }
}
