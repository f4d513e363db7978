import Foundation
import Testing
@testable import SearchIndex

/// The sentence pieces the index embeds: sentences, short ones joined, long ones cut between
/// words, every word kept in order.
@Suite struct SentencePiecesTests {
    static func words(_ text: String) -> [Substring] { text.split(whereSeparator: \.isWhitespace) }

    @Test func sentencesBecomePiecesAndShortOnesAreJoined() {
        let text = "Short one. Another short. This sentence is long enough on its own to make a piece of the minimum length here! And then a question long enough to stand alone? Yes."
        let pieces = SentencePieces.pieces(of: text)
        #expect(pieces.count == 2)
        #expect(pieces[0].hasPrefix("Short one. Another short. This sentence"))
        // the tail fragment "Yes." joins the piece before it
        #expect(pieces[1] == "And then a question long enough to stand alone? Yes.")
        #expect(pieces.allSatisfy { $0.utf8.count <= SentencePieces.maximumBytes })
        #expect(pieces.flatMap(Self.words) == Self.words(text))
    }

    @Test func aSentenceWrappedOverLinesIsOnePieceAndBlankTextHasNoPieces() {
        #expect(SentencePieces.pieces(of: "  \n\n ").isEmpty)
        // as pdftotext wraps a page: every line break inside a sentence, none at its end
        let text = """
            The washed-out switchback below Cutler Saddle was rebuilt
            with fourteen locust-wood check steps and signed off by
            the crew leader, Adaeze Okafor, after the June inspection.
            A tread outslope of eight percent keeps water moving across
            instead of down the trail, so every new section gets one.
            """
        #expect(SentencePieces.pieces(of: text) == [
            "The washed-out switchback below Cutler Saddle was rebuilt with fourteen locust-wood check steps and signed off by "
                + "the crew leader, Adaeze Okafor, after the June inspection.",
            "A tread outslope of eight percent keeps water moving across instead of down the trail, so every new section gets one.",
        ])
    }

    @Test func aLongSentenceIsCutBetweenWords() {
        let text = (1...200).map { "word\($0)" }.joined(separator: " ") + "."
        let pieces = SentencePieces.pieces(of: text)
        #expect(pieces.count > 2)
        #expect(pieces.allSatisfy { $0.utf8.count <= SentencePieces.maximumBytes })
        #expect(pieces.flatMap(Self.words) == Self.words(text))
    }

    /// Over the budget, every passage's first piece comes before any passage's second, and a
    /// round too large for the room left is taken evenly spaced; the order stays the item's.
    @Test func aLongItemKeepsAPieceInEveryPartOfIt() {
        let passages = [0, 0, 0, 1, 1, 2, 2, 2, 2]
        let pieces = passages.enumerated().map { PassageEmbeddingText.Piece(passage: $1, sentence: $0, text: "piece \($0)") }
        #expect(PassageEmbeddingText.budgeted(pieces, limit: 9) == pieces)
        #expect(PassageEmbeddingText.budgeted(pieces, limit: 4).map(\.sentence) == [0, 1, 3, 5])
        #expect(PassageEmbeddingText.budgeted(pieces, limit: 6).map(\.sentence) == [0, 1, 3, 4, 5, 6])
        // more passages than room: their first pieces, evenly spaced
        let many = (0..<10).map { PassageEmbeddingText.Piece(passage: $0, sentence: 0, text: "part \($0)") }
        #expect(PassageEmbeddingText.budgeted(many, limit: 3).map(\.passage) == [0, 3, 6])
    }

    @Test func aShortItemIsEmbeddedAsItsSummaryAndItsSentences() {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = "Ryan Mountain"
        set.contentDescription = "Desert climb."
        set.textContent = "A bighorn ram watched me from the rocks near the two kilometre mark for minutes. There is no water anywhere on this trail at all, so carry three litres."
        let pieces = PassageEmbeddingText.pieces(of: SearchableItem(uniqueIdentifier: "t", attributeSet: set))
        #expect(pieces.map(\.sentence) == [nil, 0, 1])
        #expect(pieces.allSatisfy { $0.passage == 0 && $0.text.hasPrefix("Ryan Mountain\n") })
        #expect(pieces[0].text == "Ryan Mountain\nDesert climb.")
        #expect(pieces[1].text.hasSuffix("for minutes."))
    }
}
