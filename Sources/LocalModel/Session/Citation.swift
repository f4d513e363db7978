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

    /// The sources `text` cites, each once, in the order of their first marker; a bracketed
    /// text that names none of `sources` is not a citation.
    static func citations(in text: String, sources: [CitableSource]) -> [Citation] {
        let byID = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        var citations: [Citation] = []
        var rest = text[...]
        while let open = rest.range(of: markerOpen), let close = rest[open.upperBound...].range(of: markerClose) {
            let id = String(rest[open.upperBound..<close.lowerBound])
            if let source = byID[id], seen.insert(id).inserted {
                citations.append(Citation(sourceID: id, location: source.location))
            }
            rest = rest[close.upperBound...]
        }
        return citations
    }
}
