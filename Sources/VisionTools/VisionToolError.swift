/// Why a vision tool could not read an image. Each case names the image's label, so that the
/// model (which reads the error as the tool's response) and the caller know which attachment
/// was at fault, and says what to do about it.
public enum VisionToolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The label is not among the prompt's attachments (or the tool ran outside a session's
    /// tool call, where there is no prompt to look in).
    case unknownImageLabel(label: String, available: [String])
    /// The file is missing, unreadable, or its contents are damaged.
    case unreadableImage(label: String, path: String, reason: String)
    /// The file is not an image format Leptonica reads.
    case unsupportedImageFormat(label: String, path: String)
    /// The image has more pixels than the tool's `maximumImagePixels`.
    case imageTooLarge(label: String, width: Int, height: Int, maximumPixels: Int)
    /// The OCR tool was configured with a language whose Tesseract pack is not installed.
    case missingLanguagePack(label: String, language: String, installed: [String], directory: String)
    /// The library (Leptonica, Tesseract or ZBar) failed on an image it had read.
    case recognitionFailed(label: String, engine: String, reason: String)

    /// The attachment the error is about.
    public var label: String {
        switch self {
        case .unknownImageLabel(let label, _), .unreadableImage(let label, _, _), .unsupportedImageFormat(let label, _),
             .imageTooLarge(let label, _, _, _), .missingLanguagePack(let label, _, _, _), .recognitionFailed(let label, _, _):
            label
        }
    }

    public var description: String {
        switch self {
        case .unknownImageLabel(let label, let available) where available.isEmpty:
            "no image is labelled \"\(label)\": the prompt has no image attachments; attach one with Prompt(_:attachments:)"
        case .unknownImageLabel(let label, let available):
            "no image is labelled \"\(label)\"; the attached images are \(available.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .unreadableImage(let label, let path, let reason):
            "image \"\(label)\" (\(path)) cannot be read: \(reason); attach a valid image file"
        case .unsupportedImageFormat(let label, let path):
            "image \"\(label)\" (\(path)) is not in a supported format; use PNG, JPEG, TIFF, PNM, GIF, WebP or BMP"
        case .imageTooLarge(let label, let width, let height, let maximumPixels):
            "image \"\(label)\" is \(width)×\(height) = \(width * height) pixels, over the limit of \(maximumPixels); scale it down or raise maximumImagePixels"
        case .missingLanguagePack(let label, let language, let installed, let directory):
            "cannot read text in image \"\(label)\": the Tesseract language pack \"\(language)\" is not installed in \(directory) (installed: \(installed.isEmpty ? "none" : installed.joined(separator: ", "))); install tesseract-ocr-\(language) or choose an installed language"
        case .recognitionFailed(let label, let engine, let reason):
            "\(engine) could not process image \"\(label)\": \(reason)"
        }
    }
}
