import Foundation

/// models.lock: every model Lantern knows (file, checksum, where it comes from, template family)
/// and which one is the default. Found by walking up from the working directory and from the
/// `ask` executable, so both `swift run ask` and `.build/debug/ask` find the repository's copy.
struct ModelCatalog: Decodable, Sendable {
    struct Entry: Decodable, Sendable {
        struct Source: Decodable, Sendable {
            let kind: String
            let package: String?
            let member: String?
            let hint: String?
        }
        let name: String
        let displayName: String
        let file: String
        let sha256: String?
        let sizeBytes: Int?
        let source: Source
        let templateFamily: String
        let license: String?
        let trainedContext: Int?

        /// How to get the file, in one sentence.
        var howToGet: String {
            switch source.kind {
            case "pip": "run scripts/setup.sh (it installs \(file) into models/)"
            default: source.hint ?? "put \(file) in models/ or pass --model PATH"
            }
        }
    }

    let defaultModel: String
    let models: [Entry]
    /// The file the catalogue was read from.
    var url = URL(fileURLWithPath: "models.lock")

    enum CodingKeys: String, CodingKey {
        case defaultModel = "default"
        case models
    }

    /// The folder the catalogue's files are installed in: `models/` beside models.lock.
    var modelsDirectory: URL { url.deletingLastPathComponent().appendingPathComponent("models") }

    var defaultEntry: Entry? { models.first { $0.name == defaultModel } }

    func entry(named name: String) -> Entry? { models.first { $0.name == name || $0.file == name } }

    /// $LANTERN_MODELS_LOCK when set, else the nearest models.lock above the working directory
    /// or the executable; nil when none.
    static func locate() throws(AskError) -> ModelCatalog? {
        if let path = ProcessInfo.processInfo.environment["LANTERN_MODELS_LOCK"], !path.isEmpty {
            guard FileManager.default.fileExists(atPath: path) else {
                throw AskError("LANTERN_MODELS_LOCK names \(path), which does not exist; unset it or point it at a models.lock")
            }
            return try read(URL(fileURLWithPath: path))
        }
        guard let url = searchedFolders().lazy.map({ $0.appendingPathComponent("models.lock") })
            .first(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return nil }
        return try read(url)
    }

    private static func read(_ url: URL) throws(AskError) -> ModelCatalog {
        do {
            var catalog = try JSONDecoder().decode(ModelCatalog.self, from: Data(contentsOf: url))
            catalog.url = url
            return catalog
        } catch {
            throw AskError("cannot read \(url.path): \(error.localizedDescription); restore it from the repository")
        }
    }

    /// The working directory, the executable's folder and every folder above them.
    static func searchedFolders() -> [URL] {
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
