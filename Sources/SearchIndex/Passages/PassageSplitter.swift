import Foundation
import Sentences

/// One passage as the index stores it: where it lies in the item's text (UTF-8 byte offsets
/// into textContent) and its location.
struct PassageSpan: Sendable, Hashable {
    var start: Int
    var length: Int
    var location: PassageLocation

    var end: Int { start + length }
}

/// Splits an item's text into passages at natural boundaries: a page break (form feed, as
/// `pdftotext` writes between pages) or a Markdown heading always starts a new passage; inside
/// them, passages grow by whole paragraphs up to `targetBytes`. A paragraph longer than
/// `maximumBytes` is cut at sentence ends (`SentenceSplitter`'s, the units quotes and vectors
/// use), or else between words, never inside a word or a character. Text that fits one passage and has no page break is one passage, the whole text.
///
/// The split depends only on the text and whether it is Markdown, so a replaced item's passages
/// are exactly those of its new text.
enum PassageSplitter {
    /// A passage grows by paragraphs up to this many UTF-8 bytes (about 250 tokens of English).
    static let targetBytes = 1_200
    /// No passage is longer than this, unless one word is (a word is never cut).
    static let maximumBytes = 2_000

    /// The page break `pdftotext` writes between pages.
    static let formFeed: UInt8 = 0x0C
    private static let newline = UInt8(ascii: "\n"), hash = UInt8(ascii: "#")

    /// The passages of `text`, in order; empty for text with no visible characters.
    /// `markdown` makes `#` headings boundaries and heading paths.
    static func spans(of text: String, markdown: Bool) -> [PassageSpan] {
        let bytes = Array(text.utf8)
        let paged = bytes.contains(formFeed)
        let lines = LineTable(bytes)
        if !paged, bytes.count <= maximumBytes {
            guard let trimmed = trim(bytes, 0..<bytes.count) else { return [] }
            return [span(trimmed, lines: lines, page: nil, headings: [])]
        }
        var pieces: [Piece] = []
        for block in blocks(bytes, markdown: markdown) {
            pieces += cut(block, bytes)
        }
        var spans: [PassageSpan] = []
        var current: Piece?
        for piece in pieces {
            if var open = current, open.page == piece.page, fits(piece, after: open) {
                open.range = open.range.lowerBound..<piece.range.upperBound
                if piece.startsSection { open.headings = piece.headings }
                open.onlyHeading = open.onlyHeading && piece.onlyHeading
                current = open
                continue
            }
            if let open = current { spans.append(span(open.range, lines: lines, page: open.page, headings: open.headings)) }
            current = piece
        }
        if let open = current { spans.append(span(open.range, lines: lines, page: open.page, headings: open.headings)) }
        return spans
    }

    /// Whether `piece` joins the open passage: headings alone take what follows up to the
    /// maximum; otherwise paragraphs join up to the target, and a heading starts afresh.
    private static func fits(_ piece: Piece, after open: Piece) -> Bool {
        let combined = piece.range.upperBound - open.range.lowerBound
        return open.onlyHeading ? combined <= maximumBytes : !piece.startsSection && combined <= targetBytes
    }

    /// A paragraph, a heading line, or a part of a long paragraph.
    private struct Piece {
        var range: Range<Int>
        var page: Int?
        var headings: [String]
        /// A heading begins it: it starts a new passage, unless the open passage holds nothing but headings.
        var startsSection: Bool
        var onlyHeading: Bool
    }

    /// The paragraphs and heading lines of the text, each on one page, trimmed.
    private static func blocks(_ bytes: [UInt8], markdown: Bool) -> [Piece] {
        var blocks: [Piece] = []
        let paged = bytes.contains(formFeed)
        var page = paged ? 1 : nil as Int?
        var headings: [(level: Int, title: String)] = []
        var inFence = false
        var open: Piece?
        func close() {
            if let block = open { blocks.append(block) }
            open = nil
        }
        func content(_ segment: Range<Int>) {
            guard let trimmed = trim(bytes, segment) else { return close() }
            let lineText = bytes[trimmed]
            if markdown, lineText.starts(with: [UInt8(ascii: "`"), UInt8(ascii: "`"), UInt8(ascii: "`")])
                || lineText.starts(with: [UInt8(ascii: "~"), UInt8(ascii: "~"), UInt8(ascii: "~")]) {
                inFence.toggle()
            } else if markdown, !inFence, let heading = heading(lineText) {
                close()
                while let last = headings.last, last.level >= heading.level { headings.removeLast() }
                headings.append(heading)
                blocks.append(Piece(range: trimmed, page: page, headings: headings.map(\.title), startsSection: true, onlyHeading: true))
                return
            }
            if var block = open {
                block.range = block.range.lowerBound..<trimmed.upperBound
                open = block
            } else {
                open = Piece(range: trimmed, page: page, headings: headings.map(\.title), startsSection: false, onlyHeading: false)
            }
        }
        var position = 0
        while position < bytes.count {
            let lineEnd = bytes[position...].firstIndex(of: newline) ?? bytes.count
            var segmentStart = position
            while let feed = bytes[segmentStart..<lineEnd].firstIndex(of: formFeed) {
                content(segmentStart..<feed)
                close()
                page = (page ?? 1) + 1
                segmentStart = feed + 1
            }
            content(segmentStart..<lineEnd)
            position = lineEnd + 1
        }
        close()
        return blocks
    }

    /// A Markdown ATX heading (`## Title ##`): its level and title.
    private static func heading(_ line: ArraySlice<UInt8>) -> (level: Int, title: String)? {
        let level = line.prefix { $0 == hash }.count
        guard (1...6).contains(level) else { return nil }
        let rest = line.dropFirst(level)
        guard let first = rest.first else { return (level, "") }
        guard first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") else { return nil }
        var title = String(decoding: rest, as: UTF8.self).trimmingWhitespace
        while title.hasSuffix("#") { title.removeLast() }
        return (level, title.trimmingWhitespace)
    }

    /// A block as pieces of at most `maximumBytes`, cut at the last sentence end
    /// (`SentenceSplitter`) past half the target, else at the last space, else after the first word.
    private static func cut(_ block: Piece, _ bytes: [UInt8]) -> [Piece] {
        guard block.range.count > maximumBytes else { return [block] }
        let text = String(decoding: bytes[block.range], as: UTF8.self)
        let sentenceEnds = SentenceSplitter.sentenceRanges(in: text).map { block.range.lowerBound + text.utf8.distance(from: text.startIndex, to: $0.upperBound) }
        var pieces: [Piece] = []
        var start = block.range.lowerBound
        func add(_ range: Range<Int>) {
            guard let trimmed = trim(bytes, range) else { return }
            var piece = block
            piece.range = trimmed
            piece.startsSection = pieces.isEmpty && block.startsSection
            pieces.append(piece)
        }
        while block.range.upperBound - start > maximumBytes {
            let limit = start + maximumBytes
            let sentenceEnd = sentenceEnds.last { $0 <= limit && $0 - start >= targetBytes / 2 }
            let space = bytes[(start + 1)...limit].lastIndex(where: isSpace)
            var end = sentenceEnd ?? space ?? (bytes[limit..<block.range.upperBound].firstIndex(where: isSpace) ?? block.range.upperBound)
            if end <= start { end = block.range.upperBound }
            add(start..<end)
            start = end
        }
        add(start..<block.range.upperBound)
        return pieces
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == newline || byte == 0x0D || byte == formFeed || byte == 0x0B
    }

    /// The range without leading and trailing whitespace; nil when nothing is left.
    private static func trim(_ bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        guard let first = bytes[range].firstIndex(where: { !isSpace($0) }),
              let last = bytes[range].lastIndex(where: { !isSpace($0) }) else { return nil }
        return first..<(last + 1)
    }

    private static func span(_ range: Range<Int>, lines: LineTable, page: Int?, headings: [String]) -> PassageSpan {
        PassageSpan(start: range.lowerBound, length: range.count,
                    location: PassageLocation(page: page, lines: lines.line(of: range.lowerBound)...lines.line(of: max(range.lowerBound, range.upperBound - 1)),
                                              headingPath: headings))
    }

    /// The byte offsets where lines start, to turn an offset into a 1-based line number.
    private struct LineTable {
        var starts: [Int] = [0]
        init(_ bytes: [UInt8]) {
            for (offset, byte) in bytes.enumerated() where byte == PassageSplitter.newline { starts.append(offset + 1) }
        }
        func line(of offset: Int) -> Int {
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= offset { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }
}

private extension String {
    var trimmingWhitespace: String { trimmingCharacters(in: .whitespaces) }
}

extension PassageSplitter {
    /// Whether text of this content type has Markdown headings: Markdown and its subtypes, and
    /// HTML, whose text `HTMLTextExtractor` writes with Markdown heading lines and code fences.
    static func isMarkdown(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        return contentType == markdownType || contentType == htmlType || ContentTypeTree.ancestors(of: contentType).contains(markdownType)
    }

    static let markdownType = "net.daringfireball.markdown"
    static let htmlType = "public.html"
}
