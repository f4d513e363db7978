/// What a GGUF model says about itself, read from its metadata.
public struct ModelInfo: Sendable, Hashable {
    /// `general.architecture`, for example "llama" or "qwen3".
    public let architecture: String
    /// `general.name`, when the file has one.
    public let name: String?
    /// llama.cpp's one-line description (size class and quantisation).
    public let summary: String
    public let parameterCount: UInt64
    /// The context length the model was trained with.
    public let trainedContext: Int
    public let vocabularySize: Int
    public let layerCount: Int
    /// The Jinja chat template embedded in the file, if any.
    public let chatTemplate: String?
    public let specialTokens: SpecialTokens
    /// Every metadata key with its value as text (arrays summarised).
    public let metadata: [String: String]

    public struct SpecialTokens: Sendable, Hashable {
        public let beginningOfSequence: Token?
        public let endOfSequence: Token?
        public let endOfTurn: Token?
    }

    /// The prompt layout the model was trained on, from its template (see `ChatTemplate`).
    public var templateFamily: ChatTemplate.Family { ChatTemplate.Family(template: chatTemplate, architecture: architecture) }
}
