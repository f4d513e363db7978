/// How an embedding model turns its per-token outputs into one vector per text, as the model
/// was trained (sentence-transformers' Pooling module, recorded in the GGUF as
/// `<arch>.pooling_type`). llama.cpp applies it; Lantern only reports it.
public enum EmbeddingPooling: String, Sendable, Hashable, CustomStringConvertible {
    /// The mean of every token's output (all-MiniLM-L6-v2, most sentence-transformers models).
    case mean
    /// The output of the first ([CLS]) token (BGE, E5 variants).
    case cls
    /// The output of the last token (decoder-based embedders such as Qwen3-Embedding).
    case lastToken = "last token"

    /// llama.cpp's `LLAMA_POOLING_TYPE_RANK`: a reranker, not an embedder.
    static let llamaRankPooling = 4

    /// The case for llama.cpp's `llama_pooling_type` value; nil for none, rank or unknown.
    init?(llamaPoolingType value: Int) {
        switch value {
        case 1: self = .mean
        case 2: self = .cls
        case 3: self = .lastToken
        default: return nil
        }
    }

    public var description: String { rawValue }
}
