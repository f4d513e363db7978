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

    @Test func aNegatedWordIsNotAMatch() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: nil)
        let ranking = try await index.rankSentences(Self.sentences, words: ["water"], question: "Which trails have water?")
        let entry = try #require(ranking.entries.first { $0.index == 1 })
        #expect(entry.matchedWords == 0 && !entry.isRelated)
        #expect(ranking.entries.prefix(2).map(\.index).sorted() == [3, 4])
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

    @Test func aFailingEmbedderIsATypedError() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index(embedder: ConceptEmbedder(failing: true))
        await #expect(throws: SearchIndexError.self) {
            _ = try await index.rankSentences(Self.sentences, words: ["water"], question: "water")
        }
    }
}
