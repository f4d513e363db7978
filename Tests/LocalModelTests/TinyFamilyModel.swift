import Foundation

/// A tiny GGUF of a chat family, written by the suite: random F32 weights from a seeded
/// generator (64 wide, 2 layers, 4 heads, feed-forward 128, 4096 context: it loads in
/// milliseconds and generates hundreds of tokens a second), a sentencepiece vocabulary whose
/// 256 byte tokens spell any text, the family's real special tokens with the types its GGUF
/// files give them, its bos/eos, and its real template (`TemplateFamily`'s fixture) as
/// `tokenizer.chat_template`. The text it generates is noise; what it is for is everything
/// around the weights: template detection, tokenization of the family's markup, llama-server's
/// rendering of the family's template.
enum TinyFamilyModel {
    static let embedding = 64
    static let layers = 2
    static let heads = 4
    static let feedForward = 128
    static let context = 4096

    /// The ordinary (non-byte) tokens after `▁`: a few common pieces, so plain text is not all
    /// byte tokens.
    static let ordinaryPieces = ["e", "t", "a", "o", "n", "s", "r", "i", "h", "l", "d", "▁t", "▁a", "he", "▁the", "in", "er", "an",
                                 "▁s", "▁w", "on", "re", "nd", "at", "en", "is", "es", "▁of", "▁and", "▁to"]

    /// The vocabulary of `family`'s tiny model, in id order, with each token's GGUF type.
    static func vocabulary(_ family: TemplateFamily) -> [(text: String, type: Int32)] {
        var tokens: [(text: String, type: Int32)] = [("<unk>", 2)]
        tokens += family.controlTokens.map { ($0, 3) }
        tokens += family.userDefinedTokens.map { ($0, 4) }
        tokens += (0...255).map { (String(format: "<0x%02X>", $0), 6) }
        tokens += (["▁"] + ordinaryPieces).map { ($0, 1) }
        return tokens
    }

    /// Writes `family`'s tiny model to `url`; the same `seed` writes the same bytes.
    static func write(_ family: TemplateFamily, to url: URL, seed: UInt64 = 1) throws {
        let vocabulary = vocabulary(family)
        func id(_ text: String) -> UInt32 { UInt32(vocabulary.firstIndex { $0.text == text }!) }
        let arch = family.architecture
        var writer = GGUFWriter()
        writer.metadata = [
            ("general.architecture", .string(arch)),
            ("general.name", .string("tiny \(family.rawValue)")),
            ("\(arch).context_length", .uint32(UInt32(context))),
            ("\(arch).embedding_length", .uint32(UInt32(embedding))),
            ("\(arch).block_count", .uint32(UInt32(layers))),
            ("\(arch).feed_forward_length", .uint32(UInt32(feedForward))),
            ("\(arch).attention.head_count", .uint32(UInt32(heads))),
            ("\(arch).attention.head_count_kv", .uint32(UInt32(heads))),
            ("\(arch).attention.layer_norm_rms_epsilon", .float32(1e-5)),
            ("\(arch).rope.freq_base", .float32(10_000)),
            ("tokenizer.ggml.model", .string("llama")),
            ("tokenizer.ggml.tokens", .array(elementType: 8, vocabulary.map { .string($0.text) })),
            ("tokenizer.ggml.scores", .array(elementType: 6, vocabulary.indices.map { .float32(-Float($0)) })),
            ("tokenizer.ggml.token_type", .array(elementType: 5, vocabulary.map { .int32($0.type) })),
            ("tokenizer.ggml.unknown_token_id", .uint32(id("<unk>"))),
            ("tokenizer.ggml.bos_token_id", .uint32(id(family.beginningOfSequence))),
            ("tokenizer.ggml.eos_token_id", .uint32(id(family.endOfSequence))),
            ("tokenizer.ggml.add_bos_token", .bool(family.addsBeginningOfSequence)),
            ("tokenizer.ggml.add_eos_token", .bool(false)),
            // so a text's tokens spell exactly that text, with no space put before it
            ("tokenizer.ggml.add_space_prefix", .bool(false)),
            ("tokenizer.chat_template", .string(try family.template())),
        ]
        if let endOfTurn = family.endOfTurn { writer.metadata.append(("tokenizer.ggml.eot_token_id", .uint32(id(endOfTurn)))) }
        if let endOfMessage = family.endOfMessage { writer.metadata.append(("tokenizer.ggml.eom_token_id", .uint32(id(endOfMessage)))) }

        var generator = SplitMix64(seed: seed)
        func random(_ count: Int) -> [Float] {
            (0..<count).map { _ in Float(Int64(generator.next() % 2001) - 1000) / 10_000 }
        }
        let ones = [Float](repeating: 1, count: embedding)
        let headWidth = embedding / heads
        writer.appendTensor("token_embd.weight", dimensions: [embedding, vocabulary.count], values: random(embedding * vocabulary.count))
        writer.appendTensor("output_norm.weight", dimensions: [embedding], values: ones)
        writer.appendTensor("output.weight", dimensions: [embedding, vocabulary.count], values: random(embedding * vocabulary.count))
        for layer in 0..<layers {
            let block = "blk.\(layer)."
            writer.appendTensor(block + "attn_norm.weight", dimensions: [embedding], values: ones)
            for name in ["attn_q", "attn_k", "attn_v", "attn_output"] {
                writer.appendTensor(block + name + ".weight", dimensions: [embedding, embedding], values: random(embedding * embedding))
            }
            if arch == "qwen3" {
                // Qwen3 normalises each head's queries and keys
                writer.appendTensor(block + "attn_q_norm.weight", dimensions: [headWidth], values: Array(ones.prefix(headWidth)))
                writer.appendTensor(block + "attn_k_norm.weight", dimensions: [headWidth], values: Array(ones.prefix(headWidth)))
            }
            writer.appendTensor(block + "ffn_norm.weight", dimensions: [embedding], values: ones)
            writer.appendTensor(block + "ffn_gate.weight", dimensions: [embedding, feedForward], values: random(embedding * feedForward))
            writer.appendTensor(block + "ffn_up.weight", dimensions: [embedding, feedForward], values: random(embedding * feedForward))
            writer.appendTensor(block + "ffn_down.weight", dimensions: [feedForward, embedding], values: random(feedForward * embedding))
        }
        try writer.data().write(to: url, options: .atomic)
    }

    /// Every family's tiny model, written once per test run. The folder is the same for every
    /// run (nothing piles up in the temporary folder) and each file is replaced atomically, so
    /// a run that overwrites it never disturbs another run reading it: the bytes are the same.
    static let files: [TemplateFamily: Result<URL, TinyFamilyModelError>] = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-tiny-families")
        var files: [TemplateFamily: Result<URL, TinyFamilyModelError>] = [:]
        for family in TemplateFamily.allCases {
            let url = folder.appendingPathComponent("tiny-\(family.rawValue).gguf")
            files[family] = Result { () throws(TinyFamilyModelError) -> URL in
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try write(family, to: url)
                } catch {
                    throw TinyFamilyModelError(family: family, path: url.path, reason: "\(error)")
                }
                return url
            }
        }
        return files
    }()

    /// The path of `family`'s tiny model (written on first use).
    static func url(_ family: TemplateFamily) throws(TinyFamilyModelError) -> URL {
        try files[family]!.get()
    }
}

/// A tiny family model the suite could not write: its fixture is missing or the temporary
/// folder is not writable.
struct TinyFamilyModelError: Error, CustomStringConvertible {
    var family: TemplateFamily
    var path: String
    var reason: String
    var description: String { "could not write the tiny \(family.rawValue) model at \(path): \(reason)" }
}
