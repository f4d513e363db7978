import Foundation
import Testing

/// Hand-made GGUF headers whose hyperparameters llama.cpp asserts on, given to a real `ask info`
/// (issue 55): before the header was checked, each ended the process with SIGABRT (exit 134,
/// "GGML_ASSERT(hparams.n_layer_all > 0 && ...)"); now each is a typed error naming the key,
/// with exit status 1.
@Suite("ask refuses crafted GGUF metadata instead of aborting")
struct AskCraftedGGUFTests {
    /// A GGUF header without tensors: `general.architecture` = llama and `entries`, each a
    /// uint32 or a string.
    private func header(_ entries: [(String, Any)], version: UInt32 = 3) -> Data {
        var out = Data("GGUF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) } }
        func append(_ text: String) {
            append(UInt64(text.utf8.count))
            out.append(contentsOf: Array(text.utf8))
        }
        let all: [(String, Any)] = [("general.architecture", "llama")] + entries
        append(version)
        append(UInt64(0))
        append(UInt64(all.count))
        for (key, value) in all {
            append(key)
            if let number = value as? UInt32 {
                append(UInt32(4))
                append(number)
            } else {
                append(UInt32(8))
                append(value as? String ?? "")
            }
        }
        // padded to GGUF's default alignment of 32, as a converter writes it (the issue's file
        // was 160 bytes)
        if out.count % 32 != 0 { out.append(Data(count: 32 - out.count % 32)) }
        return out
    }

    private func runInfo(on data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws -> AskProcess.Result {
        let ask = try AskProcess()
        let file = ask.dataHome.url.appendingPathComponent("crafted.gguf")
        try data.write(to: file)
        return try ask.run(["info", "--model", file.path], timeout: 120)
    }

    @Test func theIssuesBlockCountsAreATypedError() throws {
        for blocks: UInt32 in [0, 513, 0xFFFF_FFFF] {
            let result = try runInfo(on: header([("llama.block_count", blocks), ("llama.context_length", UInt32(2_048)),
                                                 ("llama.embedding_length", UInt32(64))]))
            #expect(!result.killedBySignal, "block_count \(blocks): \(result.stderr)")
            #expect(result.status == 1, "block_count \(blocks): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("llama.block_count is \(blocks) (uint32)"), "\(result.stderr)")
            #expect(result.stderr.contains("1 to 512 blocks"), "\(result.stderr)")
            #expect(!result.stderr.contains("GGML_ASSERT"), "\(result.stderr)")
        }
    }

    @Test func otherAssertedHyperparametersAreTypedErrors() throws {
        let base: [(String, Any)] = [("llama.block_count", UInt32(2)), ("llama.context_length", UInt32(2_048)), ("llama.embedding_length", UInt32(64))]
        let cases: [(entries: [(String, Any)], key: String)] = [
            ([("llama.nextn_predict_layers", UInt32(3))], "llama.nextn_predict_layers"),
            ([("llama.expert_count", UInt32(1_025)), ("llama.expert_used_count", UInt32(1))], "llama.expert_count"),
            ([("llama.expert_used_count", UInt32(4))], "llama.expert_used_count"),
            ([("llama.expert_count", UInt32(8)), ("llama.expert_used_count", UInt32(2)), ("llama.expert_group_count", UInt32(3))], "llama.expert_group_count"),
            ([("llama.rope.scaling.type", "sideways")], "llama.rope.scaling.type"),
        ]
        for (entries, key) in cases {
            let result = try runInfo(on: header(base + entries))
            #expect(!result.killedBySignal, "\(key): \(result.stderr)")
            #expect(result.status == 1, "\(key): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("its metadata \(key) is"), "\(key): \(result.stderr)")
        }
    }

    @Test func aVersionNineHundredNinetyNineIsNotCalledTruncated() throws {
        let result = try runInfo(on: header([("llama.block_count", UInt32(2))], version: 999))
        #expect(!result.killedBySignal)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("GGUF version 999"), "\(result.stderr)")
        #expect(!result.stderr.contains("truncated"), "\(result.stderr)")
    }
}
