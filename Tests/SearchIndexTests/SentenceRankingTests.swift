import Foundation
import Testing
@testable import SearchIndex

/// Sentences ranked against a question through a real index's tokenizer and embedder
/// (`SearchableIndex.rankSentences`): the words BM25 ranks, the meaning the embedder gives,
/// both fused, negated words not counted, and whether each sentence relates at all.
@Suite("Sentence ranking")
struct SentenceRankingTests {
    static let sentences = [
        "We ate lunch at the trailhead.",                          // 0: no question word
        "There is no water anywhere on this trail.",               // 1: 'water' negated
        "The creek crossing was wet and the falls were loud.",     // 2: meaning only (wet)
        "Water poured over the falls beside the trail.",           // 3: 'water' and 'trail'
        "Bring water.",                                            // 4: 'water'
    ]

    @Test func wordsRankTheSentencesThatHoldTheQuestionsWordsFirst() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: nil)
        let ranking = try await index.rankSentences(Self.sentences, words: ["trails", "water"], question: "Which trails have water?")
        let order = ranking.entries.map(\.index)
        #expect(Set(order) == Set(Self.sentences.indices) && order.count == Self.sentences.count)
        // both words (stemmed: 'trails' matches 'trail') before one word, before none
        #expect(order.first == 3)
        #expect(order.firstIndex(of: 4)! < order.firstIndex(of: 0)!)
        let entries = Dictionary(uniqueKeysWithValues: ranking.entries.map { ($0.index, $0) })
        #expect(entries[3]?.matchedWords == 2 && entries[4]?.matchedWords == 1)
        #expect(entries[0]?.isRelated == false && entries[3]?.isRelated == true)
        #expect(entries[3]?.similarity == nil)
    }

    @Test func aSentenceThatNegatesTheQuestionRanksLastAndDoesNotRelate() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: ConceptEmbedder())
        // 'trail' is matched in sentence 1, 'water' negated; near in meaning, yet last
        let ranking = try await index.rankSentences(Self.sentences, words: ["trails", "water"], question: "Which trails have water?")
        let entry = try #require(ranking.entries.last)
        #expect(entry.index == 1 && entry.negatesQuestion && !entry.isRelated)
        #expect(entry.matchedWords == 1, "the negated word is not counted, the other is")
        #expect(ranking.entries.prefix(2).map(\.index).sorted() == [3, 4])
    }

    @Test func aQuestionThatNegatesKeepsTheSentencesThatDo() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: nil)
        let ranking = try await index.rankSentences(Self.sentences, words: ["trails", "water"], question: "Which trails had no water?")
        let entry = try #require(ranking.entries.first { $0.index == 1 })
        #expect(!entry.negatesQuestion && entry.isRelated)
    }

    @Test func meaningRanksASentenceWithoutTheWordsAndFusesWithWords() async throws {
        let folder = try TemporaryFolder()
        let embedder = ConceptEmbedder()
        let index = try folder.index(embedder: embedder)
        let ranking = try await index.rankSentences(Self.sentences, words: ["moisture"], question: "moisture")
        let entries = Dictionary(uniqueKeysWithValues: ranking.entries.map { ($0.index, $0) })
        // no sentence holds 'moisture'; the ones near it in meaning relate, lunch does not
        #expect(ranking.entries.allSatisfy { $0.matchedWords == 0 && $0.similarity != nil })
        #expect(entries[2]?.isRelated == true && entries[0]?.isRelated == false)
        #expect(ranking.entries.last?.index == 0)
        #expect(embedder.embedded.withLock { $0 } == ["moisture"] + Self.sentences)
    }

    @Test func aWordMostItemsHoldRanksButDoesNotMakeASentenceRelated() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: nil)
        try await index.indexSearchableItems([
            Notes.item("a", title: "Ryan Mountain Trail", text: "A dry trail to the summit."),
            Notes.item("b", title: "Mist Trail", text: "The trail climbs beside the falls, wet with water."),
            Notes.item("c", title: "Lake Trail", text: "A flat trail around the lake."),
        ])
        let ranking = try await index.rankSentences(["Ryan Mountain Trail", "Water over the falls."], words: ["trails", "water"],
                                                    question: "Which trails have water?")
        let entries = Dictionary(uniqueKeysWithValues: ranking.entries.map { ($0.index, $0) })
        // every item holds 'trail'; one holds 'water'
        #expect(entries[0]?.matchedWords == 1 && entries[0]?.distinctiveWords == 0 && entries[0]?.isRelated == false)
        #expect(entries[1]?.distinctiveWords == 1 && entries[1]?.isRelated == true)
    }

    @Test func aFailingEmbedderIsATypedError() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: ConceptEmbedder(failing: true))
        await #expect(throws: SearchIndexError.self) {
            _ = try await index.rankSentences(Self.sentences, words: ["water"], question: "water")
        }
    }
}
