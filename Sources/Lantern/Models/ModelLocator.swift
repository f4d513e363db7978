import Foundation

/// Turns `--model` (a path, a file name in models/, or a name from models.lock) or its absence
/// (the default model) into a file that exists, or an error saying where it looked and how to
/// get the model. The one lookup of `ask`, `eval` and `bench`.
package struct ModelLocator: Sendable {
    package let catalog: ModelCatalog?

    package init(catalog: ModelCatalog?) {
        self.catalog = catalog
    }

    /// A locator over the nearest models.lock (see `ModelCatalog.locate`).
    package init() throws(ModelLookupError) {
        self.init(catalog: try ModelCatalog.locate())
    }

    /// Folders searched for a bare file name: $LANTERN_MODELS_DIR, then models/ beside models.lock.
    package var modelFolders: [URL] {
        var folders: [URL] = []
        if let custom = ProcessInfo.processInfo.environment["LANTERN_MODELS_DIR"], !custom.isEmpty {
            folders.append(URL(fileURLWithPath: custom))
        }
        if let catalog { folders.append(catalog.modelsDirectory) }
        return folders
    }

    /// `requested` as a path, as a file in the model folders, or as a models.lock name; the
    /// catalogue's default model when nil.
    package func locate(_ requested: String?) throws(ModelLookupError) -> URL {
        guard let requested else { return try locateDefault() }
        let fileManager = FileManager.default
        let direct = URL(fileURLWithPath: (requested as NSString).expandingTildeInPath)
        if fileManager.fileExists(atPath: direct.path) { return direct }
        let entry = catalog?.entry(named: requested)
        let fileName = entry?.file ?? requested
        var looked = [direct.path]
        if !requested.contains("/") {
            for folder in modelFolders {
                let candidate = folder.appendingPathComponent(fileName)
                if fileManager.fileExists(atPath: candidate.path) { return candidate }
                looked.append(candidate.path)
            }
        }
        let advice = entry.map { "to get it, \($0.howToGet)" }
            ?? "pass --model with the path of a .gguf file, or run 'ask models' to see the known models"
        throw ModelLookupError("no model file '\(requested)': looked at \(Self.list(looked)); \(advice)")
    }

    /// The embedding model for an index's vectors: `requested` found as `locate(_:)` finds a
    /// model, nil for "none"; when nil, the catalogue's default embedding model if it is
    /// installed, else nil (vectors are on wherever setup installed the model, and an index
    /// without them is full text only, not an error).
    package func locateEmbeddingModel(_ requested: String?) throws(ModelLookupError) -> URL? {
        if requested == Self.noEmbeddingModel { return nil }
        if let requested { return try locate(requested) }
        guard let entry = catalog?.defaultEmbeddingEntry else { return nil }
        return modelFolders.map { $0.appendingPathComponent(entry.file) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The `--embedding-model` value that turns vectors off.
    package static let noEmbeddingModel = "none"

    private func locateDefault() throws(ModelLookupError) -> URL {
        guard let catalog, let entry = catalog.defaultEntry else {
            let folders = ModelCatalog.searchedFolders().prefix(3).map(\.path)
            let tool = Bundle.main.executableURL?.lastPathComponent ?? "it"
            throw ModelLookupError("no --model given and no models.lock found (looked in \(Self.list(Array(folders))) and the folders above them); run \(tool) from the Lantern repository or pass --model PATH.gguf")
        }
        var looked: [String] = []
        for folder in modelFolders {
            let candidate = folder.appendingPathComponent(entry.file)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            looked.append(candidate.path)
        }
        throw ModelLookupError("the default model \(entry.name) is not installed: looked for \(entry.file) at \(Self.list(looked)); to get it, \(entry.howToGet), or pass --model PATH.gguf")
    }

    private static func list(_ paths: [String]) -> String {
        paths.count == 1 ? paths[0] : paths.dropLast().joined(separator: ", ") + " and " + (paths.last ?? "")
    }
}
