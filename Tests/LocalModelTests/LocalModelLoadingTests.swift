import Foundation
import Testing
import LocalModel
import TokenBudget
import TestModelSupport

@Suite("Loading models and reading their metadata", .serialized)
struct LocalModelLoadingTests {
    @Test func defaultModelInfoComesFromItsMetadata() throws {
        let model = try TestModel.shared()
        let header = try GGUFFile(contentsOf: TestModel.url)
        #expect(model.info.architecture == header.metadata["general.architecture"])
        #expect(model.info.architecture == "llama")
        #expect(model.info.trainedContext == Int(header.metadata["llama.context_length"] ?? ""))
        #expect(model.info.parameterCount > 100_000_000 && model.info.parameterCount < 200_000_000)
        #expect(model.info.vocabularySize == 49152)
        #expect(model.info.chatTemplate?.contains("<|im_start|>") == true)
        #expect(model.info.templateFamily == .chatml)
        #expect(model.chatTemplate.toolLayout.thinking?.offSwitch == nil)
        #expect(model.info.specialTokens.endOfSequence != nil)
    }

    @Test func vocabularyOnlyLoadCountsLikeTheFullModel() throws {
        let full = try TestModel.shared()
        let vocabulary = try LocalModel.vocabularyOnly(contentsOf: TestModel.url)
        let text = "<|im_start|>user\nWhich trails in California have water features?<|im_end|>\n"
        #expect(try vocabulary.tokenizer.tokenize(text) == full.tokenizer.tokenize(text))
        #expect(throws: LocalModelError.self) { try vocabulary.makeContext(window: .k4) }
    }

    @Test func missingFileIsNamed() {
        let path = "/nonexistent/model.gguf"
        #expect(throws: LocalModelError.fileNotFound(path: path)) {
            try LocalModel(contentsOf: URL(fileURLWithPath: path))
        }
    }

    @Test func directoryIsRefused() throws {
        let directory = try TestModel.temporaryDirectory()
        #expect(throws: LocalModelError.isDirectory(path: directory.path)) {
            try LocalModel(contentsOf: directory)
        }
    }

    @Test func textFileNamedGGUFIsNotAModel() throws {
        let file = try TestModel.temporaryDirectory().appendingPathComponent("notes.gguf")
        try "just some notes\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: LocalModelError.notGGUF(path: file.path, magic: "\"just\"")) {
            try LocalModel(contentsOf: file)
        }
    }

    @Test func truncatedCopyIsReportedAsTruncated() throws {
        let file = try TestModel.temporaryDirectory().appendingPathComponent("cut.gguf")
        let original = try Data(contentsOf: TestModel.url, options: .alwaysMapped)
        try original.prefix(original.count / 2).write(to: file)
        do {
            _ = try LocalModel(contentsOf: file)
            Issue.record("a truncated model loaded")
        } catch {
            guard case .corruptFile(_, let reason) = error else { Issue.record("wrong error \(error)"); return }
            #expect(reason.contains("truncated"))
        }
    }

    @Test func headerCutInsideTheMetadataIsCorrupt() throws {
        let file = try TestModel.temporaryDirectory().appendingPathComponent("header.gguf")
        let original = try Data(contentsOf: TestModel.url, options: .alwaysMapped)
        try original.prefix(4096).write(to: file)
        #expect {
            try LocalModel(contentsOf: file)
        } throws: { error in
            if case .corruptFile = error as? LocalModelError { return true }
            return false
        }
    }

    @Test func unknownArchitectureIsNamed() throws {
        // Same file with its architecture renamed in place (same length, so offsets hold).
        let file = try TestModel.temporaryDirectory().appendingPathComponent("alien.gguf")
        var data = try Data(contentsOf: TestModel.url)
        let key = Data("general.architecture".utf8)
        let keyRange = try #require(data.range(of: key))
        // value layout after the key: u32 type (8 = string), u64 length, bytes
        let valueStart = keyRange.upperBound + 4 + 8
        data.replaceSubrange(valueStart..<valueStart + 5, with: Data("zzzzz".utf8))
        try data.write(to: file)
        #expect(throws: LocalModelError.unsupportedArchitecture(path: file.path, architecture: "zzzzz")) {
            try LocalModel(contentsOf: file)
        }
    }

    @Test func contextLargerThanTrainedNeedsExplicitConsent() throws {
        let model = try TestModel.shared()
        let trained = model.info.trainedContext
        #expect(throws: LocalModelError.contextLargerThanTrained(requested: trained * 2, trained: trained)) {
            try model.makeContext(window: ContextWindow(tokens: trained * 2))
        }
        let context = try model.makeContext(window: ContextWindow(tokens: trained * 2), allowBeyondTrainedContext: true)
        #expect(context.size == trained * 2)
    }

    @Test func theCPUBackendIsAvailable() {
        #expect(BackendDevice.available.contains { $0.kind == .cpu })
    }
}
