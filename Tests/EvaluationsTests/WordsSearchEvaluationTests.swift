import Evaluations
import Foundation
import SearchIndex
import SearchTool
import Testing
import TestModelSupport

/// `eval --words-search`: the same paraphrased question, answered with the same search, reaches
/// its note only when the search ranks by meaning as well (the real embedding model over the
/// real sample corpus), and the report says how the words searched.
@Suite(.serialized) struct WordsSearchEvaluationTests {
    static let embeddingModel = TestEmbeddingModel.url

    @Test func aParaphraseReachesItsNoteByHybridSearchAndNotByFullText() async throws {
        let samples = try SampleReader().samples(contentsOf: SampleData.paraphraseSamples)
        let sample = try #require(samples.first { $0.id == "sheep-curled-horns" })
        let embedder = try ModelTextEmbedder(contentsOf: Self.embeddingModel, threads: 2)
        // the search a small model writes from the question's words: none is in the note
        let script = [Scripted.search(#"{"terms": ["wild", "curled"]}"#), "Ryan Mountain Trail."]
        let fullText = try #require(try await Scripted.run([sample], script: script, embedder: embedder, wordsSearch: .fullText).first)
        let hybrid = try #require(try await Scripted.run([sample], script: script, embedder: embedder, wordsSearch: .hybrid).first)
        let meaning = try #require(try await Scripted.run([sample], script: script, embedder: embedder, wordsSearch: .meaning).first)
        #expect(fullText.metrics.resultCoverage == 0)
        #expect(hybrid.metrics.resultCoverage == 1)
        #expect(meaning.metrics.resultCoverage == 1)
        // without vectors, hybrid is full text
        let withoutVectors = try #require(try await Scripted.run([sample], script: script, wordsSearch: .hybrid).first)
        #expect(withoutVectors.metrics.resultCoverage == 0)
    }

    /// Qwen2.5-Coder-0.5B's search for the same question: the words, inside a day the question
    /// never names. Given up, the day's absence lets meaning find the note; the words still
    /// match nothing, and that must not make the relaxed search count as finding nothing.
    @Test func aDateRangeTheQuestionDoesNotNameIsGivenUpWhenMeaningFindsTheNote() async throws {
        let samples = try SampleReader().samples(contentsOf: SampleData.paraphraseSamples)
        let sample = try #require(samples.first { $0.id == "sheep-curled-horns" })
        let embedder = try ModelTextEmbedder(contentsOf: Self.embeddingModel, threads: 2)
        let search = #"{"terms": ["wild", "curled"], "dates": {"attribute": "completionDate", "from": "2023-04-15", "to": "2023-04-15"}}"#
        let result = try #require(try await Scripted.run([sample], script: [Scripted.search(search), "Ryan Mountain Trail."],
                                                         embedder: embedder, wordsSearch: .hybrid).first)
        #expect(result.metrics.resultCoverage == 1)
    }
}
