import CommandLineArguments
import Foundation
import Lantern

/// `ask models`: every model in models.lock (the generation models, then the embedding models
/// indexes make their vectors with), which are installed, and how to get the others.
struct ModelsCommand: Command {
    static let configuration = CommandConfiguration(
        tool: "ask", name: "models", abstract: "List the models in models.lock and which of them are installed.")

    func run() async throws -> Int32 {
        guard let catalog = try ModelCatalog.locate() else {
            throw AskError("no models.lock found in the working directory, beside the ask executable or above them; run ask from the Lantern repository")
        }
        let locator = ModelLocator(catalog: catalog)
        Terminal.output("Models in \(catalog.url.path):\n")
        for entry in catalog.models {
            describe(entry, isDefault: entry.name == catalog.defaultModel, installedAt: try? locator.locate(entry.name),
                  kind: "template: \(entry.templateFamily ?? "from the file")")
        }
        if !catalog.embeddingModels.isEmpty {
            Terminal.output("\nEmbedding models (the vectors of search by meaning; --embedding-model none turns them off):\n")
        }
        for entry in catalog.embeddingModels {
            describe(entry, isDefault: entry.name == catalog.defaultEmbeddingModel, installedAt: try? locator.locate(entry.name),
                  kind: "kind:     sentence embeddings")
        }
        return 0
    }

    private func describe(_ entry: ModelCatalog.Entry, isDefault: Bool, installedAt installed: URL?, kind: String) {
        Terminal.output("\n\(entry.name)\(isDefault ? " (default)" : ""): \(entry.displayName)\n")
        Terminal.output("  file:     \(entry.file)\(entry.sizeBytes.map { " (\(ByteCountFormatter.string(fromByteCount: Int64($0), countStyle: .file)))" } ?? "")\n")
        Terminal.output("  \(kind)\(entry.trainedContext.map { ", trained context \($0.formatted()) tokens" } ?? "")\n")
        if let installed {
            Terminal.output("  status:   installed at \(installed.path)\n")
        } else {
            Terminal.output("  status:   not installed; to get it, \(entry.howToGet)\n")
        }
    }
}
