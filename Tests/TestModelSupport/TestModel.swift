import Foundation
import LocalModel

/// The real model the tests load, once per test process: the default (SmolLM2-135M, installed
/// by scripts/setup.sh), or the file $LANTERN_TEST_MODEL names. scripts/test.sh runs the
/// generating suites again with another panel model (Qwen2.5-Coder-0.5B) this way: they assert
/// what Lantern guarantees, so they must hold with any model. Every test target that loads a
/// model takes it from here.
public enum TestModel {
    public static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["LANTERN_TEST_MODEL"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("models/SmolLM2-135M-Instruct.Q4_1.gguf")
    }()

    private static let loaded = Result { () throws(LocalModelError) -> LocalModel in
        try LocalModel(contentsOf: url, configuration: .init(threads: 2))
    }

    /// The model, loaded on first use; a missing or unreadable file is the load's typed error.
    public static func shared() throws -> LocalModel { try loaded.get() }
}
