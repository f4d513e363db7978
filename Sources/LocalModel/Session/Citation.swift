/// A source an answer cites, read from its citation markers.
///
/// The marker is the source's id in square brackets, right after the text it supports:
/// `Webb Creek was loud after a week of rain. [trail-002]`. In the answer round the grammar
/// admits a marker only for a source this response's tool outputs showed (see `CitableSource`),
/// so every citation names something the model read; the grammar starts at `[`, so prose
/// without markers is generated as fast as without citations.
public struct Citation: Sendable, Hashable, Codable {
    /// The cited source's id.
    public var sourceID: String
    /// Where in the source, when the source has a location.
    public var location: String?

    public init(sourceID: String, location: String? = nil) {
        self.sourceID = sourceID
        self.location = location
    }

    /// What opens a marker; also the lazy grammar's trigger.
    public static let markerOpen = "["
    /// What closes a marker.
    public static let markerClose = "]"

    /// The marker that cites `id`: `[id]`.
    public static func marker(_ id: String) -> String { markerOpen + id + markerClose }

    /// Whether `id` can be written as a marker (no bracket, no line break, not empty).
    static func isCitable(_ id: String) -> Bool {
        !id.isEmpty && !id.contains(where: { $0 == "[" || $0 == "]" || $0.isNewline })
    }

    /// Every marker-shaped `[text]` of `text`, in order: a `[`, then text without a bracket or a
    /// line break, then `]`. Whether its text names a source is the reader's question; an
    /// unclosed `[` or one whose text holds a line break is no marker, and a `[` before another
    /// `[` does not swallow it (`[see [trail-002]` has the marker `trail-002`).
    public static func markers(in text: String) -> [(range: Range<String.Index>, id: String)] {
        var markers: [(range: Range<String.Index>, id: String)] = []
        var cursor = text.startIndex
        while let open = text[cursor...].firstIndex(of: Character(markerOpen)) {
            let inside = text.index(after: open)
            guard let end = text[inside...].firstIndex(where: { $0 == "[" || $0 == "]" || $0.isNewline }) else { break }
            if text[end] == "]" {
                let close = text.index(after: end)
                markers.append((open..<close, String(text[inside..<end])))
                cursor = close
            } else {
                cursor = end
            }
        }
        return markers
    }

    /// Where a marker that `text` has opened but not closed yet begins (`… rain. [trail-0`):
    /// a reader of a growing answer holds the text back from there until it knows whether a
    /// marker follows. nil when nothing is open.
    public static func openMarkerStart(in text: String) -> String.Index? {
        guard let open = text.lastIndex(of: Character(markerOpen)),
              !text[text.index(after: open)...].contains(where: { $0 == "]" || $0.isNewline }) else { return nil }
        return open
    }

    /// The sources `text` cites, each once, in the order of their first marker; a bracketed
    /// text that names none of `sources` is not a citation.
    public static func citations(in text: String, sources: [CitableSource]) -> [Citation] {
        let byID = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        return markers(in: text).compactMap { marker in
            guard let source = byID[marker.id], seen.insert(marker.id).inserted else { return nil }
            return Citation(sourceID: marker.id, location: source.location)
        }
    }
}
