/// What a GGUF model is for, read from its metadata before llama.cpp loads it: writing text, or
/// turning text into vectors.
///
/// Why: llama.cpp loads either kind into the same `llama_model` and only fails later, or not at
/// all (a chat model "embeds" into meaningless vectors; a BERT model "generates" garbage), so
/// `LocalModel` and `EmbeddingModel` each check this first and refuse the other kind with a
/// message that says which type to load it with.
public enum ModelPurpose: Sendable, Hashable, CustomStringConvertible {
    /// A causal language model: `LocalModel` runs it.
    case generation
    /// A sentence-embedding model whose file names its pooling: `EmbeddingModel` runs it.
    case embedding(pooling: EmbeddingPooling)
    /// Neither: a reranker (rank pooling) or an encoder that pools nothing; `detail` says which.
    case other(detail: String)

    /// The purpose the metadata of a GGUF file states (`GGUFFile.metadata`). A model is an
    /// embedding model when `<arch>.pooling_type` is mean, CLS or last token; a model with
    /// non-causal attention (`<arch>.attention.causal` false) never generates.
    public init(metadata: [String: String]) {
        let architecture = metadata["general.architecture"] ?? "unknown"
        let pooling = metadata["\(architecture).pooling_type"].flatMap(Int.init)
        let causal = metadata["\(architecture).attention.causal"] != "false"
        if let pooling, let kind = EmbeddingPooling(llamaPoolingType: pooling) {
            self = .embedding(pooling: kind)
        } else if pooling == EmbeddingPooling.llamaRankPooling {
            self = .other(detail: "a reranker (rank pooling), which scores query and passage pairs")
        } else if !causal {
            self = .other(detail: "an encoder with non-causal attention and no pooling in its metadata")
        } else {
            self = .generation
        }
    }

    public var description: String {
        switch self {
        case .generation: "a text generation model"
        case .embedding(let pooling): "an embedding model (\(pooling) pooling)"
        case .other(let detail): detail
        }
    }
}
