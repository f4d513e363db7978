import Foundation
import Sentences

/// The pieces of a passage that get a vector each: its sentences (`SentenceSplitter`, the units
/// quotes and snippets use too, so a sentence a PDF wrapped over lines is one), short ones
/// joined until a piece has `minimumBytes` (a last fragment under half of it joins the piece
/// before), long ones cut between words at `maximumBytes`.
///
/// One vector per sentence, not per passage: a sentence-embedding model reads one sentence
/// best, and a note's one sentence about a fact ("a bighorn ram watched me") drowns in the
/// vector of the whole note. On the shipped paraphrase samples, ranking the trails by their best
/// sentence put the expected note first for 10 of 14 questions, against 4 of 14 with one vector
/// per note (all-MiniLM-L6-v2).
enum SentencePieces {
    static let minimumBytes = 80
    static let maximumBytes = 480

    /// The pieces of `text` in order, whitespace trimmed; none for blank text.
    static func pieces(of text: String) -> [String] {
        var pieces: [String] = []
        var open = ""
        func close() {
            let piece = open.trimmingCharacters(in: .whitespacesAndNewlines)
            if !piece.isEmpty { pieces.append(contentsOf: cut(piece)) }
            open = ""
        }
        for sentence in SentenceSplitter.sentences(in: text) {
            open += open.isEmpty ? sentence : " " + sentence
            if open.utf8.count >= minimumBytes { close() }
        }
        if !open.isEmpty {
            // a fragment of a tail (under half the minimum) joins the piece before it
            if let last = pieces.last, open.utf8.count < minimumBytes / 2, last.utf8.count + open.utf8.count < maximumBytes {
                pieces[pieces.count - 1] = last + " " + open.trimmingCharacters(in: .whitespacesAndNewlines)
            } else {
                close()
            }
        }
        return pieces
    }

    /// `piece` in parts of at most `maximumBytes`, cut at the last space before the limit
    /// (or after it, for a word longer than the limit).
    private static func cut(_ piece: String) -> [String] {
        var parts: [String] = []
        var rest = Substring(piece)
        while rest.utf8.count > maximumBytes {
            var limit = rest.startIndex
            var bytes = 0
            for index in rest.indices {
                bytes += rest[index].utf8.count
                if bytes > maximumBytes { break }
                limit = index
            }
            let end = rest[...limit].lastIndex(where: \.isWhitespace) ?? rest[limit...].firstIndex(where: \.isWhitespace) ?? rest.endIndex
            let part = rest[..<end].trimmingCharacters(in: .whitespacesAndNewlines)
            if !part.isEmpty { parts.append(part) }
            rest = rest[end...].drop(while: \.isWhitespace)
        }
        if !rest.isEmpty { parts.append(String(rest)) }
        return parts
    }
}
