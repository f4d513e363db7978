extension ModelInfo {
    /// What a loaded model says about itself: llama.cpp's view of the weights, and every
    /// metadata key of the header read before the load (`LocalModel` and `EmbeddingModel` alike).
    init(handle: LlamaModelHandle, header: GGUFFile) {
        self.init(
            architecture: handle.metadata("general.architecture") ?? header.architecture ?? "unknown",
            name: handle.metadata("general.name"),
            summary: handle.descriptionText,
            parameterCount: handle.parameterCount,
            trainedContext: handle.trainedContext,
            vocabularySize: handle.vocabularySize,
            layerCount: handle.layerCount,
            chatTemplate: handle.chatTemplate,
            specialTokens: .init(beginningOfSequence: handle.beginningOfSequence,
                                 endOfSequence: handle.endOfSequence, endOfTurn: handle.endOfTurn),
            metadata: header.metadata)
    }
}
