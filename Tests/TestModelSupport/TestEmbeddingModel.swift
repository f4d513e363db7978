import Foundation

/// The real embedding model the tests use: models.lock's default embedding model, which
/// scripts/setup.sh installs under models/, or the file $LANTERN_TEST_EMBEDDING_MODEL names.
/// Every test that embeds takes the file from here, so a new default in models.lock is the one
/// the suite tests.
public enum TestEmbeddingModel {
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// models.lock's entry for an embedding model (the fields the tests read).
    public struct LockEntry: Decodable, Sendable {
        public struct Source: Decodable, Sendable {
            public let package: String
            public let member: String
            public let modelName: String
            /// The converter's --outtype (f16 when absent).
            public let outtype: String?
        }
        public let name: String
        public let file: String
        public let sha256: String
        public let dimension: Int
        public let trainedContext: Int
        public let source: Source
    }

    private struct Lock: Decodable {
        let defaultEmbedding: String
        let embeddingModels: [LockEntry]
    }

    /// models.lock's entry for the default embedding model.
    public static func lockEntry() throws -> LockEntry {
        let lock = try JSONDecoder().decode(Lock.self, from: Data(contentsOf: repository.appendingPathComponent("models.lock")))
        guard let entry = lock.embeddingModels.first(where: { $0.name == lock.defaultEmbedding }) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "models.lock lists no embedding model named \(lock.defaultEmbedding)"])
        }
        return entry
    }

    public static let url: URL = {
        if let path = ProcessInfo.processInfo.environment["LANTERN_TEST_EMBEDDING_MODEL"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let file = (try? lockEntry().file) ?? "the default embedding model named in models.lock"
        return repository.appendingPathComponent("models").appendingPathComponent(file)
    }()
}
