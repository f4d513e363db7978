import Foundation
import Testing
import LocalModel
import TestModelSupport

/// GGUF headers whose hyperparameters llama.cpp asserts on (it stops the whole process with
/// SIGABRT), or loads into a model whose first decode does: each must be refused by the header
/// reader with `invalidMetadata` naming the key, before llama.cpp sees the file. Every value
/// refused here aborted `ask info` or `ask` (exit 134) before the check existed; the same
/// headers with sane values are accepted, so the checks cannot pass by refusing everything.
@Suite("Crafted GGUF metadata llama.cpp asserts on is refused")
struct CraftedGGUFMetadataTests {
    /// A header llama.cpp reads up to its vocabulary: 2 blocks, a 2,048 context, 64 wide.
    private func header(_ architecture: String = "llama", _ entries: [(String, GGUFWriter.Value)] = []) -> GGUFWriter {
        var writer = GGUFWriter()
        writer.metadata = [
            ("general.architecture", .string(architecture)),
            ("\(architecture).block_count", .uint32(2)),
            ("\(architecture).context_length", .uint32(2_048)),
            ("\(architecture).embedding_length", .uint32(64)),
        ]
        for (key, value) in entries {
            writer.metadata.removeAll { $0.key == key }
            writer.metadata.append((key, value))
        }
        return writer
    }

    private func read(_ writer: GGUFWriter) throws -> Result<GGUFFile, LocalModelError> {
        let folder = try TestModel.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("crafted.gguf")
        try writer.write(to: file)
        return Result { () throws(LocalModelError) in try GGUFFile(contentsOf: file) }
    }

    /// The key, value and requirement of the `invalidMetadata` the header is refused with.
    private func refusal(_ writer: GGUFWriter, sourceLocation: SourceLocation = #_sourceLocation) throws -> (key: String, value: String, requirement: String)? {
        switch try read(writer) {
        case .success:
            Issue.record("the header was accepted", sourceLocation: sourceLocation)
            return nil
        case .failure(.invalidMetadata(_, let key, let value, let requirement)):
            return (key, value, requirement)
        case .failure(let error):
            Issue.record("expected invalidMetadata, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func expectAccepted(_ writer: GGUFWriter, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if case .failure(let error) = try read(writer) {
            Issue.record("a loadable header was refused: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func theIssuesBlockCountsAreRefused() throws {
        // issue 55: a 160-byte file with these block counts and the two lengths aborted on
        // GGML_ASSERT(hparams.n_layer_all > 0 && hparams.n_layer_all <= LLAMA_MAX_LAYERS)
        for blocks: UInt32 in [0, 513, 0xFFFF_FFFF] {
            let refused = try refusal(header("llama", [("llama.block_count", .uint32(blocks))]))
            #expect(refused?.key == "llama.block_count", "\(blocks)")
            #expect(refused?.value.contains(String(blocks)) == true, "\(refused?.value ?? "")")
            #expect(refused?.requirement.contains("512") == true, "\(refused?.requirement ?? "")")
        }
        try expectAccepted(header("llama", [("llama.block_count", .uint32(512))]))
        try expectAccepted(header("llama", [("llama.block_count", .uint32(1))]))
    }

    @Test func everyArchitectureIsCheckedByItsPrefix() throws {
        for architecture in ["qwen2", "qwen3", "gemma3", "phi3", "some-future-arch"] {
            let refused = try refusal(header(architecture, [("\(architecture).block_count", .uint32(0))]))
            #expect(refused?.key == "\(architecture).block_count")
            try expectAccepted(header(architecture))
        }
        // another architecture's keys are not this file's hyperparameters
        try expectAccepted(header("qwen2", [("llama.block_count", .uint32(0))]))
    }

    @Test func contextAndEmbeddingLengthsOutsideWhatLlamaCppReadsAreRefused() throws {
        // a context of 2^32 - 1 came back from llama_model_n_ctx_train as -1 tokens
        for context: UInt32 in [0, 0xFFFF_FFFF] {
            #expect(try refusal(header("llama", [("llama.context_length", .uint32(context))]))?.key == "llama.context_length")
        }
        #expect(try refusal(header("llama", [("llama.embedding_length", .uint32(0))]))?.key == "llama.embedding_length")
    }

    @Test func moreNextTokenLayersThanBlocksAreRefused() throws {
        // GGML_ASSERT(hparams.n_layer_nextn <= hparams.n_layer_all)
        #expect(try refusal(header("llama", [("llama.nextn_predict_layers", .uint32(3))]))?.key == "llama.nextn_predict_layers")
        try expectAccepted(header("llama", [("llama.nextn_predict_layers", .uint32(1))]))
    }

    @Test func expertCountsLlamaCppAssertsOnAreRefused() throws {
        let cases: [(entries: [(String, GGUFWriter.Value)], key: String)] = [
            // n_expert <= LLAMA_MAX_EXPERTS (1,024)
            ([("llama.expert_count", .uint32(1_025)), ("llama.expert_used_count", .uint32(1))], "llama.expert_count"),
            // n_expert_used_max <= n_expert
            ([("llama.expert_used_count", .uint32(4))], "llama.expert_used_count"),
            ([("llama.expert_count", .uint32(4)), ("llama.expert_used_count", .uint32(5))], "llama.expert_used_count"),
            ([("llama.expert_count", .uint32(4)), ("llama.expert_used_count", .array(elementType: 4, [.uint32(1), .uint32(9)]))], "llama.expert_used_count"),
            // n_expert_used_max > 0
            ([("llama.expert_count", .uint32(8))], "llama.expert_used_count"),
            ([("llama.expert_count", .uint32(8)), ("llama.expert_used_count", .uint32(0))], "llama.expert_used_count"),
            // n_expert_groups < n_expert
            ([("llama.expert_count", .uint32(8)), ("llama.expert_used_count", .uint32(2)), ("llama.expert_group_count", .uint32(8))], "llama.expert_group_count"),
            // n_expert % n_expert_groups == 0
            ([("llama.expert_count", .uint32(8)), ("llama.expert_used_count", .uint32(2)), ("llama.expert_group_count", .uint32(3))], "llama.expert_group_count"),
            // 0 < n_group_used < n_expert_groups
            ([("llama.expert_count", .uint32(8)), ("llama.expert_used_count", .uint32(2)), ("llama.expert_group_count", .uint32(2))], "llama.expert_group_used_count"),
            ([("llama.expert_count", .uint32(8)), ("llama.expert_used_count", .uint32(2)), ("llama.expert_group_count", .uint32(2)),
              ("llama.expert_group_used_count", .uint32(2))], "llama.expert_group_used_count"),
            // n_expert_groups == 0 without experts
            ([("llama.expert_group_count", .uint32(2))], "llama.expert_group_count"),
        ]
        for (entries, key) in cases {
            let refused = try refusal(header("llama", entries))
            #expect(refused?.key == key, "\(entries.map { "\($0.0)" }): \(refused.map { "\($0)" } ?? "accepted")")
        }
        try expectAccepted(header("llama", [("llama.expert_count", .uint32(1_024)), ("llama.expert_used_count", .uint32(8))]))
        try expectAccepted(header("llama", [("llama.expert_count", .uint32(8)), ("llama.expert_used_count", .uint32(2)),
                                            ("llama.expert_group_count", .uint32(4)), ("llama.expert_group_used_count", .uint32(2))]))
        try expectAccepted(header("llama", [("llama.expert_count", .uint32(8)), ("llama.expert_used_count", .array(elementType: 4, [.uint32(2), .uint32(8)]))]))
    }

    @Test func keyValueHeadsThatDoNotDivideTheQueryHeadsAreRefused() throws {
        // loads, then the first decode aborts on GGML_ASSERT(ggml_can_mul_mat(k, q))
        let refused = try refusal(header("llama", [("llama.attention.head_count", .uint32(4)), ("llama.attention.head_count_kv", .uint32(3))]))
        #expect(refused?.key == "llama.attention.head_count_kv")
        #expect(refused?.requirement.contains("4 query heads") == true, "\(refused?.requirement ?? "")")
        #expect(try refusal(header("llama", [("llama.attention.head_count", .uint32(4)), ("llama.attention.head_count_kv", .uint32(8))]))?.key
                == "llama.attention.head_count_kv")
        // per layer: the second layer's 6 query heads over 4 key/value heads
        #expect(try refusal(header("llama", [("llama.attention.head_count", .array(elementType: 4, [.uint32(8), .uint32(6)])),
                                             ("llama.attention.head_count_kv", .uint32(4))]))?.key == "llama.attention.head_count_kv")
        try expectAccepted(header("llama", [("llama.attention.head_count", .uint32(4)), ("llama.attention.head_count_kv", .uint32(2))]))
        // hybrid models give layers without attention 0 heads
        try expectAccepted(header("llama", [("llama.attention.head_count", .array(elementType: 4, [.uint32(4), .uint32(0)])),
                                            ("llama.attention.head_count_kv", .array(elementType: 4, [.uint32(1), .uint32(0)]))]))
    }

    @Test func headsOfNoValuesAreRefused() throws {
        // 128 heads over 64 values leave 0 a head: the load aborts on
        // GGML_ASSERT(!ggml_is_transposed(a))
        let refused = try refusal(header("llama", [("llama.attention.head_count", .uint32(128))]))
        #expect(refused?.key == "llama.attention.head_count")
        #expect(try refusal(header("llama", [("llama.attention.head_count", .uint32(4)), ("llama.attention.key_length", .uint32(0))]))?.key
                == "llama.attention.key_length")
        // a negative int32 count is read by llama.cpp as a uint32 of billions
        #expect(try refusal(header("llama", [("llama.attention.head_count", .array(elementType: 5, [.int32(-1), .int32(-1)]))]))?.key
                == "llama.attention.head_count")
        // heads wider than embedding / head_count are what key_length is for (Gemma's 256)
        try expectAccepted(header("llama", [("llama.attention.head_count", .uint32(128)), ("llama.attention.key_length", .uint32(256)),
                                            ("llama.attention.value_length", .uint32(256))]))
    }

    @Test func ropeThatTurnsMoreThanAHeadOrAnOddCountIsRefused() throws {
        // 4 heads over 64 values: 16 a head
        func withRoPE(_ architecture: String, _ dimensions: UInt32) -> GGUFWriter {
            header(architecture, [("\(architecture).attention.head_count", .uint32(4)), ("\(architecture).rope.dimension_count", .uint32(dimensions))])
        }
        for dimensions: UInt32 in [30, 15] {
            #expect(try refusal(withRoPE("phi2", dimensions))?.key == "phi2.rope.dimension_count", "\(dimensions)")
        }
        // Qwen3's graph aborts on GGML_ASSERT(n_embd_head == n_rot) at the first decode
        let refused = try refusal(withRoPE("qwen3", 8))
        #expect(refused?.key == "qwen3.rope.dimension_count")
        #expect(refused?.requirement.contains("all of a head's 16 values") == true, "\(refused?.requirement ?? "")")
        try expectAccepted(withRoPE("qwen3", 16))
        // partial rotary embeddings (Phi-2, GPT-NeoX) turn part of each head
        try expectAccepted(withRoPE("phi2", 8))
    }

    @Test func perLayerArraysHoldOneCountPerBlock() throws {
        let refused = try refusal(header("llama", [("llama.feed_forward_length", .array(elementType: 4, [.uint32(128), .uint32(128), .uint32(128)]))]))
        #expect(refused?.key == "llama.feed_forward_length")
        #expect(refused?.value == "an array of 3 uint32 [128, 128, 128]", "\(refused?.value ?? "")")
        #expect(refused?.requirement.contains("(2)") == true, "\(refused?.requirement ?? "")")
        try expectAccepted(header("llama", [("llama.feed_forward_length", .array(elementType: 4, [.uint32(128), .uint32(256)]))]))
    }

    @Test func anUnknownRoPEScalingTypeIsRefused() throws {
        // GGML_ASSERT(hparams.rope_scaling_type_train != LLAMA_ROPE_SCALING_TYPE_UNSPECIFIED)
        let refused = try refusal(header("llama", [("llama.rope.scaling.type", .string("sideways"))]))
        #expect(refused?.key == "llama.rope.scaling.type")
        #expect(refused?.requirement.contains("yarn") == true)
        for type in ["none", "linear", "yarn", "longrope"] {
            try expectAccepted(header("llama", [("llama.rope.scaling.type", .string(type))]))
        }
    }

    @Test func anEmbeddingTableThatDisagreesWithTheVocabularyIsRefused() throws {
        func model(tokens: Int, rows: Int) -> GGUFWriter {
            var writer = header("llama", [("tokenizer.ggml.model", .string("llama")),
                                          ("tokenizer.ggml.tokens", .array(elementType: 8, (0..<tokens).map { .string("t\($0)") }))])
            writer.appendTensor("token_embd.weight", dimensions: [4, rows], values: Array(repeating: 0, count: 4 * rows))
            return writer
        }
        let refused = try refusal(model(tokens: 5, rows: 7))
        #expect(refused?.key == "tokenizer.ggml.tokens")
        #expect(refused?.value == "5 tokens")
        #expect(refused?.requirement.contains("4 x 7") == true, "\(refused?.requirement ?? "")")
        try expectAccepted(model(tokens: 7, rows: 7))
    }

    @Test func everyTinyFamilyModelAndTheRealModelPass() throws {
        for family in TemplateFamily.allCases {
            _ = try GGUFFile(contentsOf: try TinyFamilyModel.url(family))
        }
        _ = try GGUFFile(contentsOf: TestModel.url)
    }

    @Test func aKeyThatAppearsTwiceIsDamage() throws {
        // llama.cpp's GGUF reader refuses the file; which of the two counts would it mean?
        var writer = header()
        writer.metadata.append(("llama.block_count", .uint32(0)))
        guard case .failure(.corruptFile(_, let reason)) = try read(writer) else {
            Issue.record("a duplicated key was not called damage")
            return
        }
        #expect(reason.contains("llama.block_count appears twice"), "\(reason)")
    }

    @Test func anEmptyKeyIsDamage() throws {
        // llama.cpp's GGUF reader refuses it ("key 4 is empty"); the fuzz target found that the
        // header reader let it through
        var writer = header()
        writer.metadata.append(("", .uint32(1)))
        guard case .failure(.corruptFile(_, let reason)) = try read(writer) else {
            Issue.record("an empty key was not called damage")
            return
        }
        #expect(reason.contains("metadata key 5 is empty"), "\(reason)")
    }

    @Test func aTensorNameGGMLCannotHoldIsDamage() throws {
        // ggml refuses "tensor name 0 is too long: 81 >= 64" (found by the fuzz target)
        var writer = header()
        writer.appendTensor(String(repeating: "w", count: 64), dimensions: [4], values: [0, 0, 0, 0])
        guard case .failure(.corruptFile(_, let reason)) = try read(writer) else {
            Issue.record("a 64-byte tensor name was not called damage")
            return
        }
        #expect(reason.contains("a name of 64 bytes"), "\(reason)")
        var shorter = header()
        shorter.appendTensor(String(repeating: "w", count: 63), dimensions: [4], values: [0, 0, 0, 0])
        try expectAccepted(shorter)
    }

    @Test func aVersionThisLlamaCppCannotReadIsCalledThat() throws {
        // issue 55: a GGUF of version 999 was called "truncated"
        for cut in [false, true] {
            var writer = header()
            writer.version = 999
            var data = writer.data()
            if cut { data = data.prefix(8) }
            let folder = try TestModel.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("v999.gguf")
            try data.write(to: file)
            #expect(throws: LocalModelError.unsupportedGGUFVersion(path: file.path, version: 999)) { try GGUFFile(contentsOf: file) }
            let message = LocalModelError.unsupportedGGUFVersion(path: file.path, version: 999).description
            #expect(message.contains("version 999"), "\(message)")
            #expect(!message.contains("truncated") && !message.contains("damaged"), "\(message)")
        }
        var old = header()
        old.version = 2
        try expectAccepted(old)
    }
}
