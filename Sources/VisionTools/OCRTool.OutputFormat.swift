extension OCRTool {
    /// How the OCR result is written for the model.
    public enum OutputFormat: String, Sendable, Hashable, Codable {
        /// One line of text per line, with its box and confidence: few tokens, enough for a
        /// small model to quote and locate text. The default.
        case compact
        /// JSON with every line and word, their boxes and confidences: for larger models or
        /// callers that parse the output.
        case structured
    }
}
