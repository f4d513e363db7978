import Foundation

/// Everything a saved prompt state depends on, so that a state is only ever loaded where it is
/// exactly the state decoding would make: the model file (its SHA-256, the digest models.lock
/// pins), where its layers run, the context's window and KV cache layout, the llama.cpp and ggml
/// libraries in the process, and the prefix's tokens. A change to any of them is another key,
/// and so another file: a stale state is never found, rather than found and rejected.
struct PromptStateKey: Sendable, Hashable {
    /// SHA-256 of the model file.
    let modelDigest: String
    /// Where the layers run (`LocalModel.Configuration`'s GPU layers, RPC servers and split):
    /// another device computes the same state with other arithmetic.
    let placement: String
    /// The window and KV cache types of the context (`LlamaContextHandle.stateLayout`).
    let contextLayout: String
    /// The llama.cpp and ggml libraries loaded (`LlamaRuntime.buildIdentity`).
    let llamaBuild: String
    /// The prefix whose state it is.
    let tokens: [Token]
    /// SHA-256 of the fields above (the tokens as 32-bit little-endian integers), which the file
    /// also holds, so a file copied or renamed onto another key's name is refused. Computed
    /// once: the file's name, its header and its check all use it.
    let digest: String

    init(modelDigest: String, placement: String, contextLayout: String, llamaBuild: String, tokens: [Token]) {
        self.modelDigest = modelDigest
        self.placement = placement
        self.contextLayout = contextLayout
        self.llamaBuild = llamaBuild
        self.tokens = tokens
        var data = Data("lantern prompt state\nmodel \(modelDigest)\nplacement \(placement)\ncontext \(contextLayout)\nllama \(llamaBuild)\ntokens \(tokens.count)\n".utf8)
        for token in tokens { withUnsafeBytes(of: token.littleEndian) { data.append(contentsOf: $0) } }
        digest = SHA256Digest(data).description
    }

    /// The file name: the digest, in hexadecimal, with `.kv`.
    var fileName: String { digest + ".kv" }
}
