/// The hyperparameters llama.cpp reads from a GGUF header, checked before llama.cpp sees the file.
///
/// llama.cpp's loader reads `{arch}.block_count`, the expert counts and the per-layer head and
/// feed-forward counts for every architecture alike (`llama_model_base::load_hparams`), and stops
/// the whole process with `GGML_ASSERT` on values no converter writes: 0 or more than 512 blocks,
/// more experts used than there are, expert groups that do not divide the experts, an unknown
/// RoPE scaling type, heads of no values. Others load and stop it in the first decode: query
/// heads that the key/value heads do not divide, RoPE over more of a head than it has. Each is
/// checked here under the prefix `general.architecture` names, so every architecture is
/// covered, and refused with `LocalModelError.invalidMetadata` naming the key, its value and
/// what a loadable file holds; so is an embedding table with another row count than the
/// vocabulary has tokens (which llama.cpp refuses only after reading the vocabulary).
///
/// A key that is absent, or of a type llama.cpp does not read for it, is left to llama.cpp:
/// it refuses those with an error of its own rather than stopping the process.
struct ModelHyperparameters {
    /// `LLAMA_MAX_LAYERS` of libllama 0.7.0: llama.cpp asserts 1 ... 512 blocks.
    static let maximumLayers: Int128 = 512
    /// `LLAMA_MAX_EXPERTS` of libllama 0.7.0 (1,024 loads; 1,025 fails the assert).
    static let maximumExperts: Int128 = 1_024
    /// The RoPE scaling types llama.cpp knows (`llama_rope_scaling_type_from_string`); any other
    /// fails an assert.
    static let ropeScalingTypes = ["none", "linear", "yarn", "longrope"]
    /// Architectures whose graph asserts that RoPE turns all of a head's values
    /// (`GGML_ASSERT(n_embd_head == n_rot)` at the first decode); `llama` refuses it at load.
    static let fullRotaryArchitectures: Set<String> = ["qwen2", "qwen3"]

    private let values: [String: GGUFValue]
    private let path: String
    private let architecture: String
    private var prefix: String { architecture + "." }

    /// Checks the header's hyperparameters; a file without `general.architecture` has none to
    /// check (llama.cpp refuses it by itself).
    static func check(values: [String: GGUFValue], tensorDimensions: [String: [UInt64]], path: String) throws(LocalModelError) {
        guard case .string(let architecture)? = values["general.architecture"] else { return }
        let reader = ModelHyperparameters(values: values, path: path, architecture: architecture)
        let blockCount = try reader.checkCounts()
        try reader.checkExperts(blockCount: blockCount)
        try reader.checkHeads(blockCount: blockCount)
        try reader.checkRoPEScaling()
        try reader.checkVocabulary(tensorDimensions: tensorDimensions)
    }

    /// The block count (when the file gives one as an integer), context and embedding lengths,
    /// and the counts bounded by the block count.
    private func checkCounts() throws(LocalModelError) -> Int? {
        var blockCount: Int?
        if let blocks = integer("block_count") {
            guard (1...Self.maximumLayers).contains(blocks.number) else {
                throw invalid(blocks, "a model has 1 to \(Self.maximumLayers) blocks (llama.cpp's LLAMA_MAX_LAYERS)")
            }
            blockCount = Int(blocks.number)
        }
        if let context = integer("context_length"), !(1...Int128(Int32.max)).contains(context.number) {
            throw invalid(context, "a model is trained on a context of 1 to \(Int32.max) tokens")
        }
        if let embedding = integer("embedding_length"), !(1...Int128(Int32.max)).contains(embedding.number) {
            throw invalid(embedding, "a token's embedding has 1 to \(Int32.max) values")
        }
        // the blocks that predict further tokens, and wavtokenizer's sub-networks, are some of
        // the model's blocks
        for name in ["nextn_predict_layers", "posnet.block_count", "convnext.block_count"] {
            guard let count = integer(name) else { continue }
            let most = Int128(blockCount ?? Int(Self.maximumLayers))
            guard (0...most).contains(count.number) else {
                throw invalid(count, "it counts some of the model's \(prefix)block_count (\(most)) blocks, so it is 0 to \(most)")
            }
        }
        return blockCount
    }

    /// The expert counts of a mixture-of-experts model, as llama.cpp asserts them.
    private func checkExperts(blockCount: Int?) throws(LocalModelError) {
        let expertCount = integer("expert_count")
        if let expertCount, !(0...Self.maximumExperts).contains(expertCount.number) {
            throw invalid(expertCount, "a model has 0 to \(Self.maximumExperts) experts (llama.cpp's LLAMA_MAX_EXPERTS)")
        }
        let experts = expertCount?.number ?? 0
        // llama.cpp drops a single expert of these two architectures before its checks
        if architecture.hasPrefix("hunyuan"), experts <= 1 { return }
        let used = try perLayer("expert_used_count", blockCount: blockCount)
        let mostUsed = used?.numbers.max() ?? 0
        if let used, mostUsed > experts {
            throw invalid(used, experts == 0 ? "a model without experts (\(prefix)expert_count 0 or absent) routes no token to one"
                                             : "a token is routed to at most the \(experts) experts of \(prefix)expert_count")
        }
        let groups = integer("expert_group_count")
        let groupCount = groups?.number ?? 0
        guard experts > 0 else {
            if let groups, groupCount != 0 {
                throw invalid(groups, "a model without experts (\(prefix)expert_count 0 or absent) has no expert groups")
            }
            return
        }
        guard mostUsed > 0 else {
            if let used { throw invalid(used, "a model with \(experts) experts routes each token to at least 1 of them") }
            throw invalid(key: key("expert_used_count"), value: "absent",
                          "a model with \(experts) experts (\(prefix)expert_count) routes each token to at least 1 of them")
        }
        guard let groups, groupCount != 0 else { return }
        guard (0..<experts).contains(groupCount) else {
            throw invalid(groups, "there must be fewer expert groups than the \(experts) experts")
        }
        guard groupCount > 1 else { return }
        guard experts % groupCount == 0 else {
            throw invalid(groups, "the \(experts) experts must split evenly into that many groups")
        }
        let groupsUsed = integer("expert_group_used_count")
        guard let groupsUsed, (1..<groupCount).contains(groupsUsed.number) else {
            let most = groupCount - 1
            let requirement = "a token is routed to \(most == 1 ? "exactly 1" : "1 to \(most)") of the \(groupCount) expert groups (\(prefix)expert_group_count)"
            if let groupsUsed { throw invalid(groupsUsed, requirement) }
            throw invalid(key: key("expert_group_used_count"), value: "absent", requirement)
        }
    }

    /// The per-layer head and feed-forward counts: an array has one count per block, the
    /// key/value heads divide the query heads into equal groups, a head has at least one value,
    /// and RoPE turns an even number of them, at most all.
    private func checkHeads(blockCount: Int?) throws(LocalModelError) {
        _ = try perLayer("feed_forward_length", blockCount: blockCount)
        let heads = try perLayer("attention.head_count", blockCount: blockCount)
        let keyValueHeads = try perLayer("attention.head_count_kv", blockCount: blockCount)
        if let heads, let keyValueHeads {
            for (layer, (query, keyValue)) in zip(heads.numbers, keyValueHeads.numbers).enumerated() where query > 0 && keyValue > 0 {
                guard keyValue <= query, query % keyValue == 0 else {
                    throw invalid(keyValueHeads, "the key/value heads divide each layer's query heads (\(prefix)attention.head_count) into equal groups, "
                                  + "and layer \(layer)'s \(query) query heads do not divide into \(keyValue) groups")
                }
            }
        }
        // llama.cpp sizes every head by the first layer's head count
        guard let firstLayerHeads = heads?.numbers.first, firstLayerHeads > 0, let heads else { return }
        for name in ["attention.key_length", "attention.value_length"] {
            if let length = integer(name), !(1...Int128(UInt32.max)).contains(length.number) {
                throw invalid(length, "an attention head has at least 1 value")
            }
        }
        guard let embedding = integer("embedding_length") else { return }
        if integer("attention.key_length") == nil || integer("attention.value_length") == nil, embedding.number / firstLayerHeads < 1 {
            throw invalid(heads, "without \(prefix)attention.key_length or value_length a head has embedding_length / head_count values, "
                          + "and \(embedding.number) / \(firstLayerHeads) leaves 0")
        }
        // RoPE turns the first values of each key head: the kernel asserts an even number, at
        // most the head's
        let keyHead = integer("attention.key_length")?.number ?? embedding.number / firstLayerHeads
        guard let rotated = integer("rope.dimension_count") else { return }
        guard (0...keyHead).contains(rotated.number), rotated.number % 2 == 0 else {
            throw invalid(rotated, "RoPE turns an even number of a head's \(keyHead) values")
        }
        if Self.fullRotaryArchitectures.contains(architecture), rotated.number != keyHead {
            throw invalid(rotated, "\(architecture) turns all of a head's \(keyHead) values")
        }
    }

    private func checkRoPEScaling() throws(LocalModelError) {
        let key = key("rope.scaling.type")
        guard case .string(let type)? = values[key], !Self.ropeScalingTypes.contains(type) else { return }
        throw invalid(key: key, value: values[key]?.described ?? type,
                      "the RoPE scaling types llama.cpp knows are " + Self.ropeScalingTypes.map { "\"\($0)\"" }.joined(separator: ", "))
    }

    /// The embedding table has one row per token of the vocabulary.
    private func checkVocabulary(tensorDimensions: [String: [UInt64]]) throws(LocalModelError) {
        let tokensKey = "tokenizer.ggml.tokens"
        guard case .array(.string, let tokens, _)? = values[tokensKey],
              let dimensions = tensorDimensions["token_embd.weight"], dimensions.count >= 2 else { return }
        guard dimensions[1] == UInt64(tokens) else {
            let shape = dimensions.map(String.init).joined(separator: " x ")
            throw invalid(key: tokensKey, value: "\(tokens) tokens",
                          "the embedding table token_embd.weight (\(shape)) has \(dimensions[1]) rows, and it needs one per token")
        }
    }

    // MARK: Reading

    /// A key under the architecture's prefix, with its value and its number.
    private struct Entry {
        let key: String
        let value: GGUFValue
        let number: Int128
    }

    /// A per-layer count: one number, or an array of one number per block.
    private struct PerLayer {
        let key: String
        let value: GGUFValue
        let numbers: [Int128]
    }

    private func key(_ name: String) -> String { prefix + name }

    /// The integer at `{arch}.name`; nil when absent or not an integer.
    private func integer(_ name: String) -> Entry? {
        let key = key(name)
        guard let value = values[key], let number = value.integer else { return nil }
        return Entry(key: key, value: value, number: number)
    }

    /// The counts at `{arch}.name`, one number or one per block, each 0 ... 2^32 - 1 (llama.cpp
    /// reads them as uint32; a negative int32 would become a count of billions). Nil when
    /// absent or not integers (llama.cpp refuses other types itself).
    private func perLayer(_ name: String, blockCount: Int?) throws(LocalModelError) -> PerLayer? {
        let key = key(name)
        let numbers: [Int128]
        switch values[key] {
        case .integer(let number, _)?:
            numbers = Array(repeating: number, count: blockCount ?? 1)
        case .array(let elementType, let count, let integers)?:
            if let blockCount, count != blockCount {
                throw invalid(key: key, value: values[key]?.described ?? "", "an array holds one count per block, \(prefix)block_count (\(blockCount))")
            }
            guard elementType.isInteger, let integers else { return nil }
            numbers = integers
        default:
            return nil
        }
        let entry = PerLayer(key: key, value: values[key] ?? .integer(0, type: .uint32), numbers: numbers)
        if let wrong = numbers.first(where: { !(0...Int128(UInt32.max)).contains($0) }) {
            throw invalid(entry, "each count is 0 to \(UInt32.max), and \(wrong) is not")
        }
        return entry
    }

    private func invalid(_ entry: Entry, _ requirement: String) -> LocalModelError {
        invalid(key: entry.key, value: entry.value.described, requirement)
    }

    private func invalid(_ entry: PerLayer, _ requirement: String) -> LocalModelError {
        invalid(key: entry.key, value: entry.value.described, requirement)
    }

    private func invalid(key: String, value: String, _ requirement: String) -> LocalModelError {
        .invalidMetadata(path: path, key: key, value: value, requirement: requirement)
    }
}
