import Foundation

/// Reads JSON Lines files record by record, for the corpus and the evaluation datasets alike:
/// lines end with LF or CRLF, a UTF-8 byte-order mark at the start is dropped, blank lines are
/// skipped, identifiers must be unique, and every problem names its file and line
/// (`JSONLinesError`).
public enum JSONLines {
    /// The text of the file at `url`, or an `unreadableFile` problem saying why not.
    public static func text<Problem>(of url: URL, problem: Problem.Type) throws(JSONLinesError<Problem>) -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "not UTF-8 text or not readable" : "no such file"
            throw JSONLinesError(path: url.path, line: 0, problem: .unreadableFile(reason: reason))
        }
    }

    /// Every record of JSON Lines `text`, read by `record` from each non-blank line (1-based
    /// numbers); `path` only labels errors.
    public static func records<Record, Problem>(
        in text: String, path: String?, identifier: (Record) -> String,
        record: (_ line: String, _ number: Int) throws(JSONLinesError<Problem>) -> Record
    ) throws(JSONLinesError<Problem>) -> [Record] {
        var records: [Record] = []
        var firstLines: [String: Int] = [:]
        // "\r\n" is one Character in Swift, so splitting on "\n" alone would leave a CRLF file one line.
        let body = text.unicodeScalars.first == "\u{FEFF}" ? Substring(text.unicodeScalars.dropFirst()) : Substring(text)
        let lines = body.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            let value = try record(String(line), number)
            let id = identifier(value)
            if let first = firstLines[id] {
                throw JSONLinesError(path: path, line: number, problem: .duplicateIdentifier(id, firstLine: first))
            }
            firstLines[id] = number
            records.append(value)
        }
        return records
    }
}
