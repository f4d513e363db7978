import Foundation
import Testing
import LocalModel
import TestModelSupport

/// Model files that cannot be used for a reason the user can fix: each error says which reason,
/// not "damaged, download it again".
@Suite("Model file errors say what is wrong")
struct ModelFileErrorTests {
    @Test func anEmptyFileIsCalledEmpty() throws {
        let file = try TestModel.temporaryDirectory().appendingPathComponent("empty.gguf")
        try Data().write(to: file)
        #expect(throws: LocalModelError.emptyFile(path: file.path)) { try LocalModel(contentsOf: file) }
        let message = LocalModelError.emptyFile(path: file.path).description
        #expect(message.contains("empty (0 bytes)"))
        #expect(!message.contains("\"\""))
    }

    @Test func anUnreadableFileIsPermissionDenied() throws {
        // root reads any file regardless of its mode; askTests run `ask` as another user for that
        let file = try TestModel.temporaryDirectory().appendingPathComponent("locked.gguf")
        var writer = GGUFWriter()
        writer.tensors = [.init(name: "token_embd.weight", dimensions: [4])]
        writer.dataSize = 16
        try writer.write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        if getuid() == 0 {
            // as root the read succeeds, whatever the file's mode
            #expect(try GGUFFile(contentsOf: file).tensorCount > 0)
            return
        }
        #expect(throws: LocalModelError.permissionDenied(path: file.path)) { try GGUFFile(contentsOf: file) }
    }

    @Test func thePermissionMessageSaysWhatToDo() {
        let message = LocalModelError.permissionDenied(path: "/models/m.gguf").description
        #expect(message.contains("permission denied"))
        #expect(message.contains("chmod"))
        #expect(!message.contains("damaged"))
        #expect(!message.contains("download"))
    }

    @Test func gpuLayersWithoutAGPUBackendAreRefused() throws {
        if BackendDevice.supportsGPUOffload {
            // a GPU backend is loaded here: the layers go to it, and the model loads
            _ = try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 2, gpuLayers: 1))
            return
        }
        do {
            _ = try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 2, gpuLayers: 9999))
            Issue.record("9999 GPU layers were accepted on a machine without a GPU backend")
        } catch {
            guard case .gpuOffloadUnavailable(let layers, let devices) = error else { Issue.record("wrong error \(error)"); return }
            #expect(layers == 9999)
            #expect(devices.contains("CPU"))
            #expect(error.description.contains("scripts/setup.sh --gpu"))
        }
        // a vocabulary-only load never offloads, and 0 layers is the CPU default
        _ = try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 2, gpuLayers: 9999, vocabularyOnly: true))
    }

    @Test func invalidMetadataSaysWhichKeyWhatItHoldsAndWhatToDo() {
        let message = LocalModelError.invalidMetadata(path: "/models/m.gguf", key: "llama.block_count", value: "513 (uint32)",
                                                      requirement: "a model has 1 to 512 blocks (llama.cpp's LLAMA_MAX_LAYERS)").description
        #expect(message.contains("/models/m.gguf"))
        #expect(message.contains("llama.block_count is 513 (uint32)"))
        #expect(message.contains("1 to 512 blocks"))
        #expect(message.contains("convert_hf_to_gguf.py"))
        #expect(!message.contains("truncated"))
    }

    @Test func versionMessagesTellOldNewAndBigEndianApart() {
        let old = LocalModelError.unsupportedGGUFVersion(path: "m.gguf", version: 1).description
        #expect(old.contains("version 1") && old.contains("convert"), "\(old)")
        let bigEndian = LocalModelError.unsupportedGGUFVersion(path: "m.gguf", version: UInt32(3).byteSwapped).description
        #expect(bigEndian.contains("big-endian"), "\(bigEndian)")
        let future = LocalModelError.unsupportedGGUFVersion(path: "m.gguf", version: 999).description
        #expect(future.contains("GGUF version 999") && future.contains("versions 2 and 3"), "\(future)")
    }

    @Test func aLoadLlamaCppRefusesSaysWhyItDid() throws {
        // a header whose hyperparameters are sound but which lacks keys llama.cpp requires: it
        // logs "error loading model: ... key not found in model: ..." before its general
        // "failed to load model", and the error carries the first, not the second
        var writer = GGUFWriter()
        writer.metadata += [("llama.block_count", .uint32(2)), ("llama.context_length", .uint32(2_048)), ("llama.embedding_length", .uint32(64))]
        let folder = try TestModel.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("missing-keys.gguf")
        try writer.write(to: file)
        do {
            _ = try LocalModel(contentsOf: file, configuration: .init(threads: 2))
            Issue.record("a model without its required keys loaded")
        } catch {
            guard case .corruptFile(_, let reason) = error else { Issue.record("wrong error \(error)"); return }
            #expect(reason.contains("key not found in model: llama."), "\(reason)")
            #expect(!reason.contains("failed to load model"), "\(reason)")
        }
    }
}
