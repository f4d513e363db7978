import Foundation
import LocalModel
import Sentences

/// What an answer's citation markers and quotes rest on, read from the answer's text and the
/// sources the response showed, never from the session's own list of citations: the
/// guarantees (a marker names only a shown source, a quote is retrieved text) are measured, not
/// assumed.
///
/// A marker is any `[text]` on one line. The quote of a marker is the text between it and the
/// marker before (or the answer's start), trimmed; in the first one, a lead-in ending in `: `
/// or a line break may precede it.
public struct CitationCheck: Sendable, Hashable {
    /// Every marker's text, in order.
    public let markers: [String]
    /// Markers that name a shown source.
    public let validMarkers: Int
    /// The distinct shown sources the answer cites, in the order of their first marker.
    public let citedIdentifiers: [String]
    /// Quotes in front of markers, and how many of them are verbatim in the retrieved text
    /// (the shown sources' text and the tool outputs' text), whitespace runs read as one space
    /// (`VerbatimText`: a sentence a PDF wrapped over two lines is quoted on one).
    public let quotes: Int
    public let verbatimQuotes: Int
    /// The answer without its markers: what it states. A marker is no statement: `[trail-004]`
    /// does not say "4".
    public let statement: String

    public init(answer: String, sources: [CitableSource], toolOutputs: [String]) {
        let shown = Set(sources.map(\.id))
        let retrieved = (sources.map(\.text) + toolOutputs).map(VerbatimText.normalized)
        var markers: [String] = []
        var cited: [String] = []
        var quotes = 0
        var verbatim = 0
        var segmentStart = answer.startIndex
        var cursor = answer.startIndex
        var statement = ""
        while let open = answer[cursor...].firstIndex(of: "["),
              let close = answer[open...].firstIndex(where: { $0 == "]" || $0.isNewline }), answer[close] == "]" {
            let marker = String(answer[answer.index(after: open)..<close])
            markers.append(marker)
            statement += answer[cursor..<open]
            if shown.contains(marker), !cited.contains(marker) { cited.append(marker) }
            let quote = answer[segmentStart..<open].trimmingCharacters(in: .whitespacesAndNewlines)
            if !quote.isEmpty {
                quotes += 1
                if Self.isVerbatim(quote, in: retrieved, mayHaveLeadIn: segmentStart == answer.startIndex) { verbatim += 1 }
            }
            cursor = answer.index(after: close)
            segmentStart = cursor
        }
        self.statement = statement + answer[cursor...]
        self.markers = markers
        validMarkers = markers.filter(shown.contains).count
        citedIdentifiers = cited
        self.quotes = quotes
        verbatimQuotes = verbatim
    }

    /// Valid markers over all markers; nil when there is none.
    public var precision: Double? { markers.isEmpty ? nil : Double(validMarkers) / Double(markers.count) }
    /// Verbatim quotes over all quotes; nil when there is none.
    public var fidelity: Double? { quotes == 0 ? nil : Double(verbatimQuotes) / Double(quotes) }

    /// `texts` are read by `VerbatimText.normalized`.
    private static func isVerbatim(_ quote: String, in texts: [String], mayHaveLeadIn: Bool) -> Bool {
        if texts.contains(where: { VerbatimText.contains(quote, inNormalized: $0) }) { return true }
        guard mayHaveLeadIn, let cut = quote.firstRange(of: ": ") ?? quote.firstRange(of: ":\n") else { return false }
        let rest = quote[cut.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        return texts.contains { VerbatimText.contains(rest, inNormalized: $0) }
    }
}
