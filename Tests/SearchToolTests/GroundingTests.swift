import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// The question grounds the filters (issue 52 item 3, issue 47 item 3): a value the question
/// names narrows whatever query the model wrote, a condition with no ground in the question is
/// given up when the search found nothing, one the question grounds never is, and every change
/// is said in the reply's adjustments and in the text the model reads.
@Suite struct GroundingTests {
    /// Runs `query` as the model's call for `question` (nil: no question known, the query runs
    /// as written) on a fresh trails index.
    func run(_ query: JSONObject, question: String?, guide: Guide = .complete) async throws -> (text: String, reply: SearchReply) {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: guide))
        if let question { _ = await tool.parameters(for: Prompt(question)) }
        let output = try await tool.call(arguments: try #require(JSONValue.query(query)))
        let reply = try #require(await TrailCorpus.replies(of: tool, count: 1).last)
        return (output, reply)
    }

    func trail(_ id: String) -> Trail? { TrailCorpus.trails.first { $0.id == id } }

    @Test func overSpecifiedQueryFindsTheItemsAndSaysWhatWasRelaxed() async throws {
        let question = "Which trails have waterfall views?"
        let query: JSONObject = ["terms": ["waterfall"], "label": "Trails in January",
                                 "dates": ["attribute": "completionDate", "from": "2023-01-01", "to": "2023-01-31"],
                                 "stages": [["stage": "count"]]]
        let asWritten = try await run(query, question: nil)
        guard case .count(let count) = asWritten.reply.content else { Issue.record("no count as written"); return }
        #expect(count.value == 0)

        let (text, reply) = try await run(query, question: question)
        let ids = reply.content.items.map(\.uniqueIdentifier)
        #expect(ids.contains("trail-002"))
        #expect(ids.contains("trail-006"))
        #expect(reply.adjustments.map(\.kind) == [.relaxed, .relaxed])
        #expect(reply.adjustments.first?.condition.contains("2023-01-01") == true)
        #expect(reply.adjustments.last?.condition.contains("count") == true)
        for adjustment in reply.adjustments { #expect(text.contains(adjustment.description)) }
    }

    /// Qwen2.5-Coder-1.5B's search for the README question ("water", "features" in 2020): two
    /// words no note holds together, inside a year the question never names. The year is given
    /// up and the notes holding some of the words are found; as written nothing is, and either
    /// change alone finds nothing.
    @Test func aRelaxedSearchFallsBackToAnyOfItsTerms() async throws {
        let query: JSONObject = ["terms": ["waterfall", "features"], "dates": ["attribute": "completionDate", "from": "2020-01-01", "to": "2020-12-31"]]
        let asWritten = try await run(query, question: nil)
        #expect(asWritten.reply.content.items.isEmpty)
        let (text, reply) = try await run(query, question: "Which trails in California have waterfall features?")
        let ids = reply.content.items.map(\.uniqueIdentifier)
        #expect(ids == ["trail-002"], "\(ids)")
        #expect(ids.allSatisfy { trail($0)?.state == "California" }, "\(ids)")
        #expect(reply.adjustments.contains { $0.kind == .relaxed && $0.condition.contains("2020-01-01") })
        #expect(text.contains("these have at least one"))
    }

    /// A search whose only term no item holds ("What does the zlib licence allow?" searched
    /// "allow" in a folder whose licence never says it) is run again with the question's own
    /// words, and says so; as written it finds nothing.
    @Test func termsNoItemHoldsAreReplacedByTheQuestionsWords() async throws {
        let query: JSONObject = ["terms": ["according"]]
        let asWritten = try await run(query, question: nil)
        #expect(asWritten.reply.content.items.isEmpty)
        let (text, reply) = try await run(query, question: "What happened to my headlamp, according to my notes?")
        #expect(reply.content.items.first?.uniqueIdentifier == "trail-004", "\(reply.content.items.map(\.uniqueIdentifier))")
        #expect(reply.adjustments.map(\.kind) == [.replaced])
        #expect(reply.adjustments.first?.reason.contains("\"headlamp\"") == true)
        #expect(reply.adjustments.first?.reason.contains("\"according\"") == false)
        for adjustment in reply.adjustments { #expect(text.contains(adjustment.description)) }

        // SmolLM2 for "Which hikes did I complete this month?": a time written as a word is a
        // missing date range, not a topic to replace with other words
        let time = try await run(["terms": ["month"]], question: "Which hikes did I complete this month?")
        #expect(time.reply.content.items.isEmpty)
        #expect(time.reply.adjustments.isEmpty)
    }

    /// SmolLM2 searches the word that names what every item is ("trails" among trail notes): as
    /// a word it keeps only the items whose text happens to say it. It is read as the items'
    /// kind (their domain), and the question's condition selects them.
    @Test func aTermNamingTheItemsKindIsLeftOut() async throws {
        let question = "Which trails in California have I hiked?"
        let california = Set(TrailCorpus.trails.filter { $0.state == "California" }.map(\.id))
        #expect(TrailCorpus.trails.contains { $0.name.contains("Trail") } && TrailCorpus.trails.allSatisfy { !$0.notes.contains("trail") })
        let (text, reply) = try await run(["terms": ["trails"]], question: question)
        #expect(Set(reply.content.items.map(\.uniqueIdentifier)) == california)
        #expect(reply.adjustments.map(\.kind) == [.added, .readAsKind])
        #expect(reply.adjustments.last?.condition == "the term \"trails\"")
        for adjustment in reply.adjustments { #expect(text.contains(adjustment.description)) }

        // without a question nothing says what the items are: the word is searched as written
        let asWritten = try await run(["terms": ["trails"]], question: nil)
        #expect(asWritten.reply.content.items.map(\.uniqueIdentifier) == ["trail-010"])
    }

    /// An app's reverse-DNS domain names the kind by its last part.
    @Test func aDottedDomainNamesTheKindByItsLastPart() async throws {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = "Permit day"
        set.textContent = "Notes on the Half Dome cables permit lottery."
        let note = SearchableItem(uniqueIdentifier: "note-1", domainIdentifier: "com.example.notes", attributeSet: set)
        let (index, _) = try await TrailCorpus.index(extra: [note])
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: .complete))
        _ = await tool.parameters(for: Prompt("Which notes mention the cables permit?"))
        _ = try await tool.call(arguments: try #require(JSONValue.query(["terms": ["notes", "permit"]])))
        let reply = try #require(await TrailCorpus.replies(of: tool, count: 1).last)
        #expect(reply.content.items.map(\.uniqueIdentifier) == ["note-1"])
        #expect(reply.adjustments.map(\.kind) == [.readAsKind])
        #expect(reply.adjustments.first?.condition == "the term \"notes\"")
    }

    /// When the kind is all the query says, the question's other words are searched in its place.
    @Test func termsThatOnlyNameTheItemsKindAreReplacedByTheQuestionsWords() async throws {
        let (_, reply) = try await run(["terms": ["trails", "trails"]], question: "Which trails did I hike up to a glacier?")
        let glacier = TrailCorpus.trails.filter { $0.keywords.contains("glacier") }.map(\.id)
        #expect(!glacier.isEmpty && Set(reply.content.items.map(\.uniqueIdentifier)) == Set(glacier), "\(reply.content.items.map(\.uniqueIdentifier))")
        #expect(reply.adjustments.map(\.kind) == [.replaced])
        #expect(reply.adjustments.first?.condition == "terms \"trails\"")
        #expect(reply.adjustments.first?.reason.contains("\"glacier\"") == true)
        #expect(reply.adjustments.first?.reason.contains("\"trail\"") == false)
    }

    /// SmolLM2's search for "How do I verify a signature with gpg?": a date range from
    /// "1234-12-32", which names no date. For a question that names no time it is left out and
    /// said so; for one that names a time the call fails with the date's error, as written.
    @Test func aDateRangeThatNamesNoDateIsLeftOutWhenTheQuestionNamesNoTime() async throws {
        let query: JSONObject = ["terms": ["waterfall"], "dates": ["attribute": "completionDate", "from": "1234-12-32"]]
        await #expect(throws: SearchToolError.self) { try await run(query, question: nil) }
        await #expect(throws: SearchToolError.self) { try await run(query, question: "Which waterfall trails did I hike in 2024?") }
        let (text, reply) = try await run(query, question: "Which trails have waterfall views?")
        #expect(reply.content.items.map(\.uniqueIdentifier).contains("trail-002"))
        #expect(reply.adjustments.map(\.kind) == [.relaxed])
        #expect(reply.adjustments.first?.condition.contains("1234-12-32") == true)
        #expect(text.contains("names no date"))
    }

    @Test func filterOnAValueTheQuestionDoesNotNameIsRelaxedWhenNothingMatches() async throws {
        let query: JSONObject = ["terms": ["waterfall"], "filters": [["attribute": "stateOrProvince", "op": "is", "value": "Washington"]]]
        let (_, reply) = try await run(query, question: "Which trails have waterfall views?")
        #expect(!reply.content.items.isEmpty)
        #expect(reply.adjustments.count == 1)
        #expect(reply.adjustments.first?.kind == .relaxed)
        #expect(reply.adjustments.first?.condition.contains("Washington") == true)
    }

    @Test(arguments: [Guide.complete, .focused()])
    func stateTheQueryLeftOutNarrowsTheResults(guide: Guide) async throws {
        let query: JSONObject = ["terms": ["waterfall", "california"]]
        let (text, reply) = try await run(query, question: "Which trails in California have a waterfall?", guide: guide)
        let items = reply.content.items
        #expect(items.map(\.uniqueIdentifier) == ["trail-002"])
        #expect(items.allSatisfy { trail($0.uniqueIdentifier)?.state == "California" })
        #expect(reply.adjustments.map(\.kind) == [.added, .readAsValue])
        #expect(reply.adjustments.first?.condition == "stateOrProvince is California")
        #expect(text.contains("Added stateOrProvince is California"))

        // Without the question the same query finds the Utah waterfall too.
        let asWritten = try await run(["terms": ["waterfall"]], question: nil, guide: guide)
        #expect(asWritten.reply.content.items.contains { trail($0.uniqueIdentifier)?.state == "Utah" })
    }

    @Test func questionAskingSeveralThingsAddsNothing() async throws {
        let (_, reply) = try await run(["terms": ["waterfall"]], question: "Which trails have waterfalls, and how many are in Utah?")
        #expect(reply.adjustments.isEmpty)
        #expect(reply.content.items.contains { trail($0.uniqueIdentifier)?.state == "California" })
    }

    @Test func ratingTheQuestionNamesNarrowsTheResults() async throws {
        let (_, reply) = try await run(["terms": ["summit"]], question: "Which summit trails are rated 5?", guide: .focused())
        let items = reply.content.items
        #expect(!items.isEmpty)
        #expect(items.allSatisfy { trail($0.uniqueIdentifier)?.rating == 5 })
        #expect(reply.adjustments.map(\.condition) == ["rating = 5"])
    }

    @Test func countOfTheItemsTheQuestionsConditionsSelect() async throws {
        let query: JSONObject = ["terms": ["hiked", "california"], "stages": [["stage": "count"]]]
        let (_, reply) = try await run(query, question: "How many trails have I hiked in California?", guide: .focused())
        guard case .count(let count) = reply.content else { Issue.record("no count"); return }
        #expect(count.value == TrailCorpus.trails.filter { $0.state == "California" }.count)
        #expect(reply.adjustments.map(\.kind) == [.added, .readAsValue, .relaxed])
        #expect(reply.adjustments.last?.condition == "terms \"hiked\"")
    }

    @Test func filterTheQuestionGroundsIsNeverRelaxed() async throws {
        let state: JSONObject = ["terms": ["waterfall"], "filters": [["attribute": "stateOrProvince", "op": "is", "value": "Arizona"]]]
        let (stateText, stateReply) = try await run(state, question: "Which trails in Arizona have a waterfall?")
        #expect(stateReply.content.items.isEmpty)
        #expect(stateReply.adjustments.isEmpty)
        #expect(stateText.contains("No items matched"))

        let year: JSONObject = ["terms": ["summit"], "dates": ["attribute": "completionDate", "from": "2023-01-01", "to": "2023-12-31"]]
        let (_, yearReply) = try await run(year, question: "Which summit trails did I finish in 2023?")
        #expect(yearReply.content.items.isEmpty)
        #expect(!yearReply.adjustments.contains { $0.kind == .relaxed })
    }

    @Test(arguments: [["terms": ["creek"]], ["terms": ["creek", "glacier"]], ["filters": [["attribute": "rating", "op": ">=", "value": 3]]]] as [JSONObject])
    func queryRunsAsWrittenWhenTheQuestionGroundsNothing(query: JSONObject) async throws {
        let question = "Which trails have a creek or a glacier?"
        let grounded = try await run(query, question: question)
        let asWritten = try await run(query, question: nil)
        #expect(grounded.reply.adjustments.isEmpty)
        #expect(grounded.reply.content.items.map(\.uniqueIdentifier) == asWritten.reply.content.items.map(\.uniqueIdentifier))
        // the same rows and notes; the header names the matches, what "which" asks
        #expect(grounded.text.split(separator: "\n").dropFirst() == asWritten.text.split(separator: "\n").dropFirst())
    }
}
