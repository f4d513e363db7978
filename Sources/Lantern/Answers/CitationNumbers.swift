import LocalModel

/// The numbers a person reads for an answer's cited sources: 1, 2, … in the order of each
/// source's first marker. `ask`'s "Sources" list and `--json`'s `citation` take them from here, and
/// the printed answer shows `[1]` where the model wrote `[trail-002]` or a file's whole path, so
/// a marker and its listed source always agree. `--json`'s `answer` keeps the ids.
public struct CitationNumbers: Sendable {
    private let numbers: [String: Int]

    /// Numbers `citations` in their order (`Response.citations` is in the order of first marker).
    public init(_ citations: [Citation]) {
        numbers = Dictionary(citations.map(\.sourceID).enumerated().map { ($1, $0 + 1) }, uniquingKeysWith: { first, _ in first })
    }

    /// The number of the cited source `id`; nil for a source the answer does not cite.
    public func number(of id: String) -> Int? { numbers[id] }

    /// `text` with each marker of a numbered source written as its number; a marker of any
    /// other id and bracketed text that is no marker stay as written.
    public func rendered(_ text: String) -> String {
        var result = ""
        var cursor = text.startIndex
        for marker in Citation.markers(in: text) {
            guard let number = numbers[marker.id] else { continue }
            result += text[cursor..<marker.range.lowerBound] + Citation.marker(String(number))
            cursor = marker.range.upperBound
        }
        return result + text[cursor...]
    }
}
