import Foundation
import Testing
import LocalModel

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
}
