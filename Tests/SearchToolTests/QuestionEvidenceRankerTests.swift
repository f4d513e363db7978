import Foundation
import LocalModel
import SearchIndex
import Testing
@testable import SearchTool

/// The search tool's evidence ranker over a real trails index: the word naming what is asked
/// for is no evidence, a sentence denying the question is not related, and the tool's result
/// comes first when the question asks how many or which.
@Suite("Question evidence ranker")
struct QuestionEvidenceRankerTests {
    static let evidence = [
        Evidence(sentence: "Ryan Mountain Trail", sourceID: "trail-003"),
        Evidence(sentence: "There is no water anywhere on this trail.", sourceID: "trail-003"),
        Evidence(sentence: "Granite staircase beside Vernal Fall, soaked by spray at high water.", sourceID: "trail-001"),
        Evidence(sentence: "4 items match.", sourceID: "spotlight_search", kind: .result),
    ]

    @Test func theWordAfterWhichOrHowManyNamesWhatIsAskedFor() {
        #expect(QuestionVocabulary.answerTypeWords(in: "Which trails in California have water features?") == ["trails", "trail"])
        #expect(QuestionVocabulary.answerTypeWords(in: "How many hikes did I log?") == ["hikes", "hike"])
        #expect(QuestionVocabulary.answerTypeWords(in: "Tell me about the Maple Pass Loop.").isEmpty)
        #expect(QuestionVocabulary.asksForSeveral("Which trails in California have water features?"))
        #expect(QuestionVocabulary.asksForSeveral("What hikes had a lake?"))
        #expect(!QuestionVocabulary.asksForSeveral("On which trip did I see river otters?"))
        #expect(!QuestionVocabulary.asksForSeveral("What went wrong with my camera?"))
    }

    @Test func evidenceForAWhichQuestion() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)]))
        let ranked = try await tool.evidenceRanker.rank(Self.evidence, for: "Which trails have water?")
        #expect(Set(ranked.map(\.evidence)) == Set(Self.evidence))
        let firstItem = ranked.first { $0.evidence.kind == .item }
        #expect(firstItem?.evidence == Self.evidence[2] && firstItem?.isRelated == true)
        let related = Set(ranked.filter(\.isRelated).map(\.evidence.sentence))
        #expect(!related.contains(Self.evidence[0].sentence), "'trail' alone names what is asked for")
        #expect(!related.contains(Self.evidence[1].sentence), "it denies what is asked")
        #expect(ranked.last?.evidence == Self.evidence[1])
    }

    /// The tool's own result (a count, the matches' titles) answers "how many" and "which":
    /// it comes first for them, and takes its place among the rest for any other question.
    @Test func aResultComesFirstForHowManyOrWhich() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)]))
        for question in ["How many trails have water?", "Which trails have water?"] {
            let ranked = try await tool.evidenceRanker.rank(Self.evidence, for: question)
            #expect(ranked.first?.evidence.kind == .result && ranked.first?.isRelated == true, "\(question)")
        }
        for question in ["Where on my trails is there water?", "Which trail has water, and how long is it?"] {
            let unasked = try await tool.evidenceRanker.rank(Self.evidence, for: question)
            #expect(unasked.first?.evidence.kind != .result, "\(question)")
        }
    }
}
