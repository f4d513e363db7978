import LocalModel

/// Reads the text in an image attached to the prompt (Apple's `OCRTool`, on Tesseract).
///
/// The model calls it with an attachment's label, `{"image": "receipt-1"}`, and reads back the
/// lines in reading order with their boxes and confidences. Apple's initialiser takes only a
/// name and a description; Lantern adds the knobs Tesseract needs and Vision hides: the
/// language packs, the page segmentation, the output format and a pixel cap.
///
/// ```swift
/// let session = LanguageModelSession(model: model, tools: [OCRTool(), BarcodeReaderTool()])
/// let prompt = Prompt("What is the total on this receipt?",
///                     attachments: [ImageAttachment(url: receiptURL, label: "receipt-1")])
/// let answer = try await session.respond(to: prompt)
/// ```
public struct OCRTool: Tool {
    public typealias Arguments = ImageArguments

    public let name: String
    public let description: String
    /// Tesseract language packs, combined (e.g. `["eng", "deu"]`); see `installedLanguages`.
    public let languages: [String]
    public let pageSegmentationMode: PageSegmentationMode
    public let format: OutputFormat
    /// Images with more pixels are refused before they are decoded (`imageTooLarge`):
    /// recognition time grows with the pixel count, and a photo at full sensor resolution can
    /// keep Tesseract busy for a minute.
    public let maximumImagePixels: Int
    private let engine: OCREngine

    /// - Parameters:
    ///   - languages: an empty list means English.
    public init(name: String? = nil, description: String? = nil, languages: [String] = ["eng"],
                pageSegmentationMode: PageSegmentationMode = .singleColumn, format: OutputFormat = .compact,
                maximumImagePixels: Int = 25_000_000) {
        self.name = name ?? "read_text"
        self.description = description
            ?? "Reads the printed text in an image attached to the prompt (OCR). Returns its lines in reading order with their positions and confidence."
        self.languages = languages.isEmpty ? ["eng"] : languages
        self.pageSegmentationMode = pageSegmentationMode
        self.format = format
        self.maximumImagePixels = maximumImagePixels
        self.engine = OCREngine(languages: self.languages, mode: pageSegmentationMode)
    }

    /// The Tesseract language packs installed on this machine (`eng`, `deu`, …), for
    /// `languages`; Debian installs them as `tesseract-ocr-<language>`.
    public static var installedLanguages: [String] { TesseractAPI.installedLanguages.languages }

    /// Restricts `image` to the labels of the prompt's attachments.
    public func parameters(for prompt: Prompt) async -> GenerationSchema { ImageArguments.schema(for: prompt) }

    /// Reads the text of the attachment the model named; throws `VisionToolError`.
    public func call(arguments: ImageArguments) async throws -> RecognizedText {
        try await recognizeText(in: arguments.resolvedInCurrentCall())
    }

    /// Reads the text of an image directly, without a session.
    public func recognizeText(in attachment: ImageAttachment) async throws(VisionToolError) -> RecognizedText {
        try await engine.recognize(attachment, maximumPixels: maximumImagePixels, format: format)
    }
}
