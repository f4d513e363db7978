import Foundation
import Testing
@testable import SearchIndex

/// Corpora written on Windows (CRLF line ends) or by editors that start UTF-8 with a byte-order
/// mark read like any other; line numbers in errors stay right.
@Suite struct CorpusLineEndingTests {
    static let lines = [
        #"{"id": "a", "attributes": {"title": "Alpha", "textContent": "granite dome"}}"#,
        #"{"id": "b", "attributes": {"title": "Beta", "keywords": ["lake"]}}"#,
    ]

    @Test(arguments: ["\r\n", "\n"], [false, true])
    func crlfAndAByteOrderMarkAreAccepted(lineEnd: String, byteOrderMark: Bool) throws {
        let text = (byteOrderMark ? "\u{FEFF}" : "") + Self.lines.joined(separator: lineEnd) + lineEnd + lineEnd
        let items = try CorpusReader().items(fromText: text)
        #expect(items.map(\.uniqueIdentifier) == ["a", "b"])
        #expect(items.first?.attributeSet.textContent == "granite dome")
        #expect(items.last?.attributeSet.keywords == ["lake"])

        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("corpus.jsonl")
        try Data(text.utf8).write(to: file)
        #expect(try CorpusReader().items(contentsOf: file).map(\.uniqueIdentifier) == ["a", "b"])
    }

    @Test func anErrorOnACRLFLineNamesThatLine() throws {
        let text = "\u{FEFF}" + Self.lines[0] + "\r\n\r\n" + #"{"id": "c", "attributes": {"rating": "high"}}"# + "\r\n"
        #expect(throws: CorpusReaderError(path: nil, line: 3, problem: .wrongType(field: "attribute \"rating\"", expected: "a number", found: "a string"))) {
            try CorpusReader().items(fromText: text)
        }
    }
}
