import Foundation
import Synchronization
import Testing
@testable import LocalModel
import TestModelSupport

/// The answer round offers what the tools showed ranked by the question (`EvidenceRanker`,
/// `AnswerEvidence`): quotes best first, unrelated sentences and sources left out, everything
/// when nothing relates, the shown order when the ranker fails; and a tool's own result (a
/// count) is quotable under the tool's name.
@Suite("Evidence ranked by the question")
struct EvidenceRankingTests {
    typealias NotesTool = GroundedAnswerTests.NotesTool

    /// Ranks the sentences that hold `word` first, newest-shown first among them, and calls only
    /// those related; records the question it was given.
    final class WordRanker: EvidenceRanker {
        let word: String
        let questions = Mutex<[String]>([])
        init(_ word: String) { self.word = word }

        func rank(_ evidence: [Evidence], for question: String) async throws -> [RankedEvidence] {
            questions.withLock { $0.append(question) }
            let holding = evidence.filter { $0.sentence.localizedCaseInsensitiveContains(word) }.reversed()
            return holding.map { RankedEvidence($0, isRelated: true) }
                + evidence.filter { !$0.sentence.localizedCaseInsensitiveContains(word) }.map { RankedEvidence($0, isRelated: false) }
        }
    }

    struct FailingRanker: EvidenceRanker {
        struct Failure: Error {}
        func rank(_ evidence: [Evidence], for question: String) async throws -> [RankedEvidence] { throw Failure() }
    }

    static func session(_ model: ScriptedLanguageModel, ranker: (any EvidenceRanker)?) -> LanguageModelSession {
        LanguageModelSession(model: model, tools: [NotesTool()], evidenceRanker: ranker)
    }

    /// The quotes of a quote grammar, in the order the grammar offers them.
    static func offeredQuotes(_ gbnf: String) -> [String] {
        gbnf.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("lantern-grounded-quote-"), let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""), open < close else { return nil }
            return String(line[line.index(after: open)..<close]).replacingOccurrences(of: "\\\"", with: "\"")
        }
    }

    @Test func quotesAreOfferedBestFirstAndUnrelatedOnesAreLeftOut() async throws {
        let model = ScriptedLanguageModel([GroundedAnswerTests.call(#"{"topic": "trails"}"#), "We saw the Mile Rock lighthouse. [note-2]"])
        let ranker = WordRanker("the")
        let response = try await Self.session(model, ranker: ranker).respond(to: "What did we see?", options: .init(toolCallingMode: .required, answerStyle: .quote))
        let offered = Self.offeredQuotes(try #require(model.parameters.last?.grammar).gbnf)
        // sentences holding "the", in the ranker's order (last shown first); none without it
        #expect(offered == [
            "The headlamp batteries were left at the trailhead register. [note-3]",
            "We saw the Mile Rock lighthouse. [note-2]",
            "Lands End runs along the cliffs of San Francisco. [note-2]",
            "The spray soaks the granite steps. [note-1]",
        ])
        #expect(ranker.questions.withLock { $0 } == ["What did we see?"])
        #expect(response.citations == [Citation(sourceID: "note-2")])
    }

    @Test func aSourceWithNoRelatedSentenceCannotBeCited() async throws {
        let model = ScriptedLanguageModel([GroundedAnswerTests.call(#"{"topic": "trails"}"#), "Batteries [note-3]."])
        _ = try await Self.session(model, ranker: WordRanker("batteries")).respond(to: "Where are the batteries?", options: .init(toolCallingMode: .required, answerStyle: .prose))
        let grammar = try #require(model.parameters.last?.grammar).gbnf
        #expect(grammar.contains("\"note-3\""))
        #expect(!grammar.contains("\"note-1\"") && !grammar.contains("\"note-2\""))
    }

    @Test func whenNothingRelatesTheBestAreOfferedAnyway() async throws {
        let model = ScriptedLanguageModel([GroundedAnswerTests.call(#"{"topic": "trails"}"#), "We saw the Mile Rock lighthouse. [note-2]"])
        _ = try await Self.session(model, ranker: WordRanker("zebra")).respond(to: "Zebras?", options: .init(toolCallingMode: .required, answerStyle: .quote))
        let offered = Self.offeredQuotes(try #require(model.parameters.last?.grammar).gbnf)
        #expect(offered.count == 5)
    }

    @Test func aFailingRankerLeavesTheShownOrder() async throws {
        let script = [GroundedAnswerTests.call(#"{"topic": "trails"}"#), "We saw the Mile Rock lighthouse. [note-2]"]
        let unranked = ScriptedLanguageModel(script)
        _ = try await Self.session(unranked, ranker: nil).respond(to: "What?", options: .init(toolCallingMode: .required, answerStyle: .quote))
        let failing = ScriptedLanguageModel(script)
        let response = try await Self.session(failing, ranker: FailingRanker()).respond(to: "What?", options: .init(toolCallingMode: .required, answerStyle: .quote))
        let shownOrder = Self.offeredQuotes(try #require(unranked.parameters.last?.grammar).gbnf)
        #expect(shownOrder.first == "Mist Trail climbs beside Vernal Fall. [note-1]")
        #expect(Self.offeredQuotes(try #require(failing.parameters.last?.grammar).gbnf) == shownOrder)
        #expect(response.content == "We saw the Mile Rock lighthouse. [note-2]")
    }

    @Test func aToolsOwnResultIsQuotableUnderTheToolsName() async throws {
        struct CountTool: Tool {
            struct Arguments: Generable, Codable { static let generationSchema: GenerationSchema = .object([]) }
            let name = "count_trails"
            let description = "Counts the trails."
            func call(arguments: Arguments) async throws -> String { "4 items match." }
            func result(for arguments: Arguments) async throws -> ToolResult {
                ToolResult(text: "4 items match.", sources: [CitableSource(id: "anything", text: "4 items match.", kind: .result)])
            }
        }
        let call = "<tool_call>\n{\"name\": \"count_trails\", \"arguments\": {}}\n</tool_call>"
        let model = ScriptedLanguageModel([call, call, "4 items match. [count_trails-2]"])
        let session = LanguageModelSession(model: model, tools: [CountTool()], repeatedToolCallPolicy: .runEveryCall)
        let response = try await session.respond(to: "How many?", options: .init(toolCallingMode: .required, answerStyle: .quote))
        #expect(response.sources.map(\.id) == ["count_trails", "count_trails-2"])
        #expect(response.sources.allSatisfy { $0.kind == .result })
        #expect(response.citations == [Citation(sourceID: "count_trails-2")])
    }

    /// A tool's result that is what the question asks (a count for "how many", the matches
    /// for "which trails"), ranked first, opens a quoted answer; the other quotes may follow.
    /// A result the model's own query asked for, or one ranked below an item, does not.
    @Test func aQuotedAnswerBeginsWithTheResultThatAnswersTheQuestion() async throws {
        struct ResultsFirst: EvidenceRanker {
            func rank(_ evidence: [Evidence], for question: String) async throws -> [RankedEvidence] {
                let (results, items) = (evidence.filter { $0.kind == .result }, evidence.filter { $0.kind == .item })
                return (results + items).map { RankedEvidence($0, isRelated: true) }
            }
        }
        func sources(answering: Bool) -> ResponseSources {
            ResponseSources([Transcript.Entry.toolOutput(.init(id: "search", toolName: "search", text: "", sources: [
                CitableSource(id: "search", text: "2 items matched: Mist Trail, Lands End", kind: .result, answersQuestion: answering),
                CitableSource(id: "note-1", text: "The spray soaks the granite steps."),
            ]))])
        }
        let model = try TestModel.shared()
        let answering = try await AnswerEvidence(sources(answering: true), question: "Which trails?", ranker: ResultsFirst())
        #expect(answering.firstQuoteAnswers)
        let grammar = try #require(GroundingGrammar.quotes(answering, orToolCalls: nil))
        #expect(try model.grammar(grammar.gbnf, root: grammar.root, accepts: "2 items matched: Mist Trail, Lands End [search]"))
        #expect(try model.grammar(grammar.gbnf, root: grammar.root,
                                  accepts: "Here is what I found: 2 items matched: Mist Trail, Lands End [search] The spray soaks the granite steps. [note-1]"))
        #expect(try !model.grammar(grammar.gbnf, root: grammar.root, accepts: "The spray soaks the granite steps. [note-1]"))

        let asked = try await AnswerEvidence(sources(answering: false), question: "Which trails?", ranker: ResultsFirst())
        let free = try #require(GroundingGrammar.quotes(asked, orToolCalls: nil))
        #expect(try model.grammar(free.gbnf, root: free.root, accepts: "The spray soaks the granite steps. [note-1]"))
        let below = try await AnswerEvidence(sources(answering: true), question: "Which trails?", ranker: WordRanker("spray"))
        #expect(!below.firstQuoteAnswers)
    }
}
