import Foundation
import Testing
@testable import LocalModel
import TestModelSupport

/// scripts/convert-embedding-model.py, run as setup runs it: from the wheel models.lock pins,
/// twice, into a temporary folder.
///
/// It needs the source wheel that setup keeps in ${XDG_CACHE_HOME:-~/.cache}/lantern/wheels and
/// the gguf Python library setup installs; without them it is skipped (run scripts/setup.sh).
@Suite("Embedding model converter")
struct EmbeddingConverterTests {
    struct Setup {
        let wheel: URL
        let member: String
        let modelName: String
        let outtype: String
        let sha256: String
    }

    /// The cached wheel and models.lock's pins; nil when setup has not cached the wheel.
    static let setup: Setup? = {
        guard let entry = try? EmbeddingTestModel.lockEntry() else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        let folder = cache.appendingPathComponent("lantern/wheels/\(entry.source.package.replacingOccurrences(of: "==", with: "-"))")
        guard let wheel = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.first(where: { $0.hasSuffix(".whl") }),
              run(["python3", "-c", "import gguf"]).status == 0 else { return nil }
        return Setup(wheel: folder.appendingPathComponent(wheel), member: entry.source.member, modelName: entry.source.modelName,
                     outtype: entry.source.outtype ?? "f16", sha256: entry.sha256)
    }()

    @Test("the same wheel converts to the same bytes, the ones models.lock pins", .enabled(if: setup != nil, "run scripts/setup.sh: it caches the source wheel and installs the gguf library"))
    func deterministic() throws {
        let setup = try #require(Self.setup)
        let folder = try TestModel.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var digests: [String] = []
        for name in ["first.gguf", "second.gguf"] {
            let output = folder.appendingPathComponent(name)
            let result = Self.run(["python3", EmbeddingTestModel.repository.appendingPathComponent("scripts/convert-embedding-model.py").path,
                                   setup.wheel.path, output.path, "--member", setup.member, "--name", setup.modelName, "--outtype", setup.outtype])
            #expect(result.status == 0, "the converter failed: \(result.errors)")
            digests.append(try SHA256Digest(contentsOf: output).description)
        }
        #expect(digests[0] == digests[1])
        #expect(digests[0] == setup.sha256)
    }

    @Test("a folder that is not a BERT model is refused with a message, and no file is left", .enabled(if: setup != nil, "run scripts/setup.sh"))
    func refusesOtherModels() throws {
        let folder = try TestModel.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama"}"#.utf8).write(to: folder.appendingPathComponent("config.json"))
        let output = folder.appendingPathComponent("out.gguf")
        let result = Self.run(["python3", EmbeddingTestModel.repository.appendingPathComponent("scripts/convert-embedding-model.py").path, folder.path, output.path])
        #expect(result.status != 0)
        #expect(result.errors.contains("BertModel only"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
        #expect(!FileManager.default.fileExists(atPath: output.path + ".partial"))
    }

    static func run(_ arguments: [String]) -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { return (-1, "\(error)") }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
