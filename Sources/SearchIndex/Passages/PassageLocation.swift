/// Where a passage lies in its item's text: the PDF page it is on (pages are the form feeds
/// `pdftotext` writes), the Markdown headings above it, and its lines. A source list prints it;
/// `fetch` takes a page back.
public struct PassageLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 1-based page, for text with page breaks (PDFs); nil otherwise.
    public var page: Int?
    /// The 1-based lines of the item's text the passage spans.
    public var lines: ClosedRange<Int>
    /// The Markdown headings the passage is under, outermost first (empty outside Markdown).
    public var headingPath: [String]

    public init(page: Int?, lines: ClosedRange<Int>, headingPath: [String] = []) {
        self.page = page
        self.lines = lines
        self.headingPath = headingPath
    }

    /// "page 40", or "lines 120-134", followed by the heading path when there is one
    /// ("lines 120-134, Service > Pressure"): short, plain ASCII, the same for people and models.
    public var description: String {
        let place = page.map { "page \($0)" }
            ?? (lines.count == 1 ? "line \(lines.lowerBound)" : "lines \(lines.lowerBound)-\(lines.upperBound)")
        return headingPath.isEmpty ? place : place + ", " + headingPath.joined(separator: " > ")
    }
}
