import Foundation
import LocalModel

/// What `OCRTool` read in one image: its lines of text in reading order, each with its box,
/// confidence and words (Apple's `VNRecognizedTextObservation`s, gathered per image).
public struct RecognizedText: Sendable, Hashable, Codable, PromptRepresentable {
    /// A line of text as Tesseract segmented it.
    public struct Line: Sendable, Hashable, Codable {
        public var text: String
        public var bounds: PixelRect
        /// 0...1 (Tesseract's percentage divided by 100, as Apple's confidences run).
        public var confidence: Float
        /// Which text block (column, paragraph group) the line belongs to, counting from 0.
        public var block: Int
        public var words: [Word]

        public init(text: String, bounds: PixelRect, confidence: Float, block: Int, words: [Word]) {
            self.text = text
            self.bounds = bounds
            self.confidence = confidence
            self.block = block
            self.words = words
        }
    }

    /// A word of a line.
    public struct Word: Sendable, Hashable, Codable {
        public var text: String
        public var bounds: PixelRect
        /// 0...1.
        public var confidence: Float

        public init(text: String, bounds: PixelRect, confidence: Float) {
            self.text = text
            self.bounds = bounds
            self.confidence = confidence
        }
    }

    /// The attachment's label.
    public var label: String
    public var width: Int
    public var height: Int
    public var lines: [Line]
    /// How `promptRepresentation` renders the result.
    public var format: OCRTool.OutputFormat

    public init(label: String, width: Int, height: Int, lines: [Line], format: OCRTool.OutputFormat = .compact) {
        self.label = label
        self.width = width
        self.height = height
        self.lines = lines
        self.format = format
    }

    /// The text alone, in reading order: one line per line, a blank line between blocks.
    public var text: String {
        zip(lines.indices, lines).map { index, line in
            index > 0 && lines[index - 1].block != line.block ? "\n" + line.text : line.text
        }.joined(separator: "\n")
    }

    public var promptRepresentation: String {
        switch format {
        case .compact: compact
        case .structured: structured
        }
    }

    /// One line per line of text: box, confidence in percent, text; blank lines between blocks.
    private var compact: String {
        let size = "\(width)×\(height) px"
        guard !lines.isEmpty else { return "No text found in image \"\(label)\" (\(size))." }
        let count = lines.count == 1 ? "1 line" : "\(lines.count) lines"
        let header = "Text in image \"\(label)\" (\(size), \(count); [x,y,width,height in pixels from the top left] confidence% text):"
        let body = zip(lines.indices, lines).map { index, line in
            let row = "[\(line.bounds.compact)] \(Int((line.confidence * 100).rounded()))% \(line.text)"
            return index > 0 && lines[index - 1].block != line.block ? "\n" + row : row
        }
        return ([header] + body).joined(separator: "\n")
    }

    /// The whole result as JSON (keys sorted), words included.
    private var structured: String {
        struct Rendered: Encodable {
            let image: String, width: Int, height: Int, lines: [Line]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, an integer or a finite confidence (the bindings clamp it),
        // so encoding cannot fail; the compact form stands in should that ever change.
        guard let data = try? encoder.encode(Rendered(image: label, width: width, height: height, lines: lines)) else { return compact }
        return String(decoding: data, as: UTF8.self)
    }
}
