import Foundation
import Synchronization

/// A sentence-embedding GGUF (BERT family, e.g. all-MiniLM-L6-v2) loaded in-process through
/// llama.cpp: texts in, one unit-length vector per text out.
///
/// The counterpart of `LocalModel` for models that read rather than write: the weights are
/// memory-mapped once, one llama.cpp context pools each text's token outputs the way the model
/// was trained (its GGUF metadata names the pooling) and runs on the engine thread, like every
/// other forward pass in the process. Texts are embedded in batches: several texts share one
/// forward pass as separate sequences. A text longer than the model reads is truncated at a
/// token boundary, its framing tokens kept, and the result says so (`Embedding.isTruncated`);
/// it is not split, because the caller knows better where a text may be cut (the index embeds
/// passages, which fit).
public final class EmbeddingModel: Sendable {
    /// Where the file came from.
    public let url: URL
    public let info: ModelInfo
    public let configuration: Configuration
    /// How the model pools token outputs into one vector, from its metadata.
    public let pooling: EmbeddingPooling
    /// Length of every vector.
    public let dimension: Int
    /// The most tokens of one text the model reads, framing tokens included: the smaller of
    /// the context it was trained with and `Configuration.batchTokens`.
    public let maximumTokensPerText: Int
    let handle: LlamaModelHandle
    private let encoder: EmbeddingEncoder
    /// The framing tokens the vocabulary adds around every text ([CLS] before, [SEP] after).
    private let framing: (prefix: [Token], suffix: [Token])
    private let digest = Mutex<String?>(nil)

    /// How the model is loaded and run.
    public struct Configuration: Sendable, Hashable {
        /// The most texts one forward pass takes (llama.cpp's sequences per batch).
        public static let maximumTextsPerBatchLimit = 64

        /// Threads for the forward passes, 1...`LocalModel.Configuration.maximumThreads` (checked
        /// when the model loads); defaults to the machine's cores.
        public var threads: Int
        /// Layers to offload to a GPU backend (0 = CPU only, the tested default here).
        public var gpuLayers: Int
        /// Tokens one forward pass holds, all its texts together. A larger batch shares more
        /// matrix work between texts, but attention spans the whole batch, so past a few hundred
        /// tokens it costs more than it saves; the default is the trained context of
        /// all-MiniLM-L6-v2, which also holds any one text whole.
        public var batchTokens: Int
        /// Texts one forward pass takes, at most `maximumTextsPerBatchLimit`.
        public var maximumTextsPerBatch: Int

        public init(threads: Int = LocalModel.Configuration.defaultThreads, gpuLayers: Int = 0,
                    batchTokens: Int = 512, maximumTextsPerBatch: Int = 16) {
            self.threads = threads
            self.gpuLayers = max(0, gpuLayers)
            self.batchTokens = max(8, batchTokens)
            self.maximumTextsPerBatch = min(max(1, maximumTextsPerBatch), Self.maximumTextsPerBatchLimit)
        }

        /// Refuses a thread count outside 1...`LocalModel.Configuration.maximumThreads`
        /// (`.threadCountOutOfRange`), as loading does, for a caller that loads later.
        public func validate() throws(LocalModelError) {
            try LocalModel.Configuration.checkThreads(threads)
        }
    }

    /// Loads the embedding model at `url`. Throws `LocalModelError` for everything
    /// `LocalModel(contentsOf:)` refuses and, when the file is a text generation model (or a
    /// reranker), `.notAnEmbeddingModel` naming what it is, and `.threadCountOutOfRange` for
    /// threads outside 1...`LocalModel.Configuration.maximumThreads`.
    public init(contentsOf url: URL, configuration: Configuration = Configuration()) throws(LocalModelError) {
        try configuration.validate()
        let header = try GGUFFile(contentsOf: url)
        let purpose = ModelPurpose(metadata: header.metadata)
        guard case .embedding(let pooling) = purpose else { throw .notAnEmbeddingModel(path: url.path, purpose: purpose.description) }
        try LlamaRuntime.initialize()
        // Where the layers run, as for a generation model (a GPU when asked; no RPC servers).
        let placement = try LayerPlacement(LocalModel.Configuration(gpuLayers: configuration.gpuLayers))
        let loaded = EngineThread.shared.run {
            LlamaModelHandle.load(path: url.path, vocabOnly: false, placement: placement)
        }
        let handle: LlamaModelHandle
        switch loaded {
        case .success(let loadedHandle): handle = loadedHandle
        case .failure(let failure): throw LocalModel.classify(failure.log, path: url.path, architecture: header.architecture)
        }
        let context = try EngineThread.shared.run { () throws(LocalModelError) in
            try LlamaEmbeddingContextHandle(model: handle, batchTokens: configuration.batchTokens,
                                            maximumSequences: configuration.maximumTextsPerBatch, threads: configuration.threads)
        }
        self.url = url
        self.configuration = configuration
        self.handle = handle
        self.info = ModelInfo(handle: handle, header: header)
        self.pooling = pooling
        self.dimension = context.dimension
        self.maximumTokensPerText = min(info.trainedContext, context.batchTokens)
        self.framing = try Self.framing(handle)
        self.encoder = EmbeddingEncoder(context: context)
    }

    /// The tokenizer of the model's vocabulary (to count a passage's tokens before embedding it).
    public var tokenizer: Tokenizer { Tokenizer(handle: handle) }

    /// One unit-length vector per text, in order. See `embeddings(for:)` for the details.
    public func embed(_ texts: [String]) async throws(LocalModelError) -> [[Float]] {
        try await embeddings(for: texts).map(\.vector)
    }

    /// The unit-length vector of one text.
    public func embed(_ text: String) async throws(LocalModelError) -> [Float] {
        try await embeddings(for: [text])[0].vector
    }

    /// One `Embedding` per text, in order: the vector and how much of the text it stands for.
    /// The text is read as plain text (markup such as "[SEP]" in it is not a control token);
    /// a text longer than `maximumTokensPerText` keeps its first tokens and its framing. A
    /// cancelled task stops between batches with `.cancelled`.
    public func embeddings(for texts: [String]) async throws(LocalModelError) -> [Embedding] {
        var sequences: [[Token]] = []
        var dropped: [Int] = []
        sequences.reserveCapacity(texts.count)
        for text in texts {
            if Task.isCancelled { throw .cancelled }
            let content = try handle.tokenize(text, addSpecial: false, parseSpecial: false)
            let kept = max(0, maximumTokensPerText - framing.prefix.count - framing.suffix.count)
            sequences.append(framing.prefix + content.prefix(kept) + framing.suffix)
            dropped.append(max(0, content.count - kept))
        }
        let vectors = try await encoder.encode(sequences)
        return vectors.indices.map { Embedding(vector: vectors[$0], tokenCount: sequences[$0].count, droppedTokenCount: dropped[$0]) }
    }

    /// The model's name, file digest and dimension, for an index to record beside its vectors.
    /// The digest is the SHA-256 of the file, read once on first use (about a tenth of a second
    /// for all-MiniLM-L6-v2 in a release build).
    public func identity() throws(LocalModelError) -> EmbeddingModelIdentity {
        let sha256: String
        if let known = digest.withLock({ $0 }) {
            sha256 = known
        } else {
            sha256 = try SHA256Digest(contentsOf: url).description
            digest.withLock { $0 = sha256 }
        }
        return EmbeddingModelIdentity(name: info.name ?? url.deletingPathExtension().lastPathComponent, sha256: sha256, dimension: dimension)
    }

    /// The tokens the vocabulary puts before and after every text: what tokenizing a short
    /// text with them adds around its tokens without them.
    private static func framing(_ handle: LlamaModelHandle) throws(LocalModelError) -> (prefix: [Token], suffix: [Token]) {
        let bare = try handle.tokenize("a", addSpecial: false, parseSpecial: false)
        let framed = try handle.tokenize("a", addSpecial: true, parseSpecial: false)
        guard framed.count >= bare.count,
              let start = (0...(framed.count - bare.count)).first(where: { Array(framed[$0..<($0 + bare.count)]) == bare }) else {
            return ([], [])
        }
        return (Array(framed[..<start]), Array(framed[(start + bare.count)...]))
    }
}
