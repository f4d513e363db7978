@testable import Lantern
import Foundation
import Testing

/// The models.lock lookup `ask`, `eval` and `bench` share, over a catalogue in a temporary folder.
@Suite struct ModelLocatorTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-locator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("models"), withIntermediateDirectories: true)
        try Data("""
            {"default": "tiny", "models": [
              {"name": "tiny", "displayName": "Tiny", "file": "tiny.gguf", "sha256": null, "sizeBytes": null,
               "source": {"kind": "pip", "package": "tiny==1"}, "templateFamily": "chatml", "license": "MIT", "trainedContext": 2048},
              {"name": "big", "displayName": "Big", "file": "big.gguf", "sha256": null, "sizeBytes": null,
               "source": {"kind": "user", "hint": "download big.gguf yourself"}, "templateFamily": "qwen", "license": null, "trainedContext": null},
              {"name": "extra", "displayName": "Extra", "file": "extra.gguf", "sha256": null, "sizeBytes": null,
               "source": {"kind": "pip", "optional": true, "parts": []}, "templateFamily": "gemma", "license": null, "trainedContext": null}]}
            """.utf8).write(to: folder.appendingPathComponent("models.lock"))
    }

    private func locator() throws -> ModelLocator {
        ModelLocator(catalog: try ModelCatalog(contentsOf: folder.appendingPathComponent("models.lock")))
    }

    private func install(_ file: String) throws -> URL {
        let url = folder.appendingPathComponent("models/\(file)")
        try Data("GGUF".utf8).write(to: url)
        return url
    }

    @Test func theDefaultAndNamedModelsAreFoundBesideTheCatalogue() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tiny = try install("tiny.gguf")
        let big = try install("big.gguf")
        let locator = try locator()
        #expect(try locator.locate(nil).standardizedFileURL == tiny.standardizedFileURL)
        #expect(try locator.locate("big").standardizedFileURL == big.standardizedFileURL)
        #expect(try locator.locate("big.gguf").standardizedFileURL == big.standardizedFileURL)
        #expect(try locator.locate(big.path).path == big.path)
    }

    @Test func aMissingModelSaysWhereItLookedAndHowToGetIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let locator = try locator()
        let missingDefault = #expect(throws: ModelLookupError.self) { try locator.locate(nil) }
        #expect(missingDefault?.message.hasPrefix("the default model tiny is not installed") == true)
        #expect(missingDefault?.message.contains(folder.appendingPathComponent("models/tiny.gguf").path) == true)
        #expect(missingDefault?.message.contains("scripts/setup.sh") == true)
        let missingNamed = #expect(throws: ModelLookupError.self) { try locator.locate("big") }
        #expect(missingNamed?.message.contains("download big.gguf yourself") == true)
        let missingOptional = #expect(throws: ModelLookupError.self) { try locator.locate("extra") }
        #expect(missingOptional?.message.contains("scripts/setup.sh --model extra") == true, "\(missingOptional?.message ?? "")")
        let unknown = #expect(throws: ModelLookupError.self) { try locator.locate("nowhere.gguf") }
        #expect(unknown?.message.contains("run 'ask models' to see the known models") == true)
    }

    @Test func anUnreadableCatalogueSaysToRestoreIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.lock")
        try Data("{".utf8).write(to: broken)
        let error = #expect(throws: ModelLookupError.self) { try ModelCatalog(contentsOf: broken) }
        #expect(error?.message.contains("restore it from the repository") == true)
    }
}
