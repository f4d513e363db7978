import CommandLineArguments
import Foundation
import LocalModel
import VisionTools

/// `--image FILE[:label]` (repeatable): images attached to each question, read by the OCR and
/// barcode tools, which the session offers only when there are images. The label is what the
/// model names in its tool call; it defaults to the file name without its extension.
struct ImageOptions: Sendable {
    let attachments: [ImageAttachment]

    /// The tools that read the attachments: none without images, so a plain question's
    /// prompt carries no vision tool definitions.
    var tools: [any Tool] { attachments.isEmpty ? [] : [OCRTool(), BarcodeReaderTool()] }

    /// The images named by the `--image` words, each checked to be a readable file.
    init(_ words: [String], fileManager: FileManager = .default) throws(UsageError) {
        var attachments: [ImageAttachment] = []
        for word in words {
            let (path, label) = Self.split(word, fileManager: fileManager)
            var isFolder: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw UsageError("--image: no file at '\(path)'; give the path of a PNG, JPEG, TIFF or PBM image")
            }
            guard !isFolder.boolValue, fileManager.isReadableFile(atPath: path) else {
                throw UsageError("--image: cannot read '\(path)'; give a readable image file, not a folder")
            }
            let attachment = ImageAttachment(url: URL(fileURLWithPath: path), label: label)
            guard !attachment.label.isEmpty else { throw UsageError("--image \(word): the label after ':' is empty") }
            if attachments.contains(where: { $0.label == attachment.label }) {
                throw UsageError("--image: two images are labelled '\(attachment.label)'; give one a label with FILE:label")
            }
            attachments.append(attachment)
        }
        self.attachments = attachments
    }

    /// `FILE:label` into its parts. A word naming an existing file is all path (paths may
    /// hold colons); otherwise the text after the last colon is the label, when it has no '/'.
    private static func split(_ word: String, fileManager: FileManager) -> (path: String, label: String?) {
        let expanded = (word as NSString).expandingTildeInPath
        guard !fileManager.fileExists(atPath: expanded), let colon = word.lastIndex(of: ":") else { return (expanded, nil) }
        let label = String(word[word.index(after: colon)...])
        guard !label.contains("/") else { return (expanded, nil) }
        return ((String(word[..<colon]) as NSString).expandingTildeInPath, label)
    }
}
