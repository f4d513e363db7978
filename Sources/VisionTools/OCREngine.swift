import LocalModel

/// Owns one OCR tool's Tesseract engine: loaded on first use (loading a language pack takes a
/// while), then reused; an actor because Tesseract is not thread-safe, so concurrent calls of
/// the same tool take turns.
actor OCREngine {
    let languages: [String]
    let mode: OCRTool.PageSegmentationMode
    private var api: TesseractAPI?

    /// Tesseract parallelises with OpenMP, as ggml does: run from any other thread it would
    /// leave a second libgomp team in the process, and the model's decoding team would stop
    /// spinning between operations (generation at about half speed).
    nonisolated var unownedExecutor: UnownedSerialExecutor { EngineThread.shared.asUnownedSerialExecutor() }

    init(languages: [String], mode: OCRTool.PageSegmentationMode) {
        self.languages = languages
        self.mode = mode
    }

    func recognize(_ attachment: ImageAttachment, maximumPixels: Int, format: OCRTool.OutputFormat) throws(VisionToolError) -> RecognizedText {
        let api: TesseractAPI
        if let loaded = self.api {
            api = loaded
        } else {
            api = try TesseractAPI(languages: languages, mode: mode, label: attachment.label)
            self.api = api
        }
        let image = try LeptonicaImage(attachment, maximumPixels: maximumPixels)
        let lines = try api.recognize(image, label: attachment.label)
        return RecognizedText(label: attachment.label, width: image.width, height: image.height, lines: lines, format: format)
    }
}
