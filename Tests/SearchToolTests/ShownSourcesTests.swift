import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// The sources the search and fetch tools attach to their results (issue 24): exactly the items
/// the model was shown, with the text it read of them.
@Suite struct ShownSourcesTests {
    @Test func aSearchAttachesTheShownRowsWithTheTextTheyShow() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index, fetch: [.title, .rating, .textContent])],
                                                   maximumResponseSize: 400))
        let result = try await tool.result(for: try #require(JSONValue.query(["limit": 12])))
        let shown = result.text.split(separator: "\n").compactMap { line in
            (try? JSONValue(parsing: String(line)))?.objectValue?["id"]?.stringValue
        }
        #expect(!shown.isEmpty && shown.count < 12, "the size cap leaves rows out: \(result.text)")
        // the rows the cap left out are no sources
        #expect(result.sources.map(\.id) == shown)
        for source in result.sources {
            let trail = try #require(TrailCorpus.trails.first { $0.id == source.id })
            // result rows carry no body (it comes through fetch), so the title is all the text shown
            #expect(!result.text.contains(trail.notes))
            #expect(source.text == trail.name, "the title, not the rating")
            #expect(source.location == nil)
        }
    }

    /// For "how many", the search's own count of its matches, naming them, is quotable: the
    /// answer and the names, whatever query the model wrote.
    @Test func aSearchForHowManyAttachesItsCountOfTheMatchesWithTheirNames() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)]))
        _ = await tool.parameters(for: Prompt("How many of my trails are in Utah?"))
        let result = try await tool.result(for: try #require(JSONValue.query(["terms": ["trails"]])))
        let counts = result.sources.filter { $0.kind == .result }
        let count = try #require(counts.first?.text)
        let utah = TrailCorpus.trails.filter { $0.state == "Utah" }
        #expect(counts.count == 1 && result.text.contains(count))
        #expect(counts.first?.answersQuestion == true, "what the question asks: a quoted answer begins with it")
        let prefix = "\(utah.count) items matched: "
        #expect(count.hasPrefix(prefix), "\(count)")
        #expect(Set(count.dropFirst(prefix.count).components(separatedBy: ", ")) == Set(utah.map(\.name)))
        #expect(Set(result.sources.filter { $0.kind == .item }.map(\.id)) == Set(utah.map(\.id)))

        // a question that asks no count, or one item, or a count per group, gets no count to quote
        for question in ["Where did I hike in Utah?", "On which trail in Utah did I see a lizard?", "How many trails did I hike in each state of Utah?",
                         "How many hours did my Utah trails take?", "How many waterfalls did I see in Utah?",
                         "Which trail in Utah did I like most, and how many are there?"] {
            _ = await tool.parameters(for: Prompt(question))
            let listed = try await tool.result(for: try #require(JSONValue.query(["terms": ["trails"]])))
            #expect(listed.sources.allSatisfy { $0.kind == .item } && listed.sources.count == utah.count, "\(question)")
        }
    }

    /// For "which", the titles of the matches are quotable when every match is shown: the
    /// answer is the list, whatever query found it; a page that leaves matches out names none.
    @Test func aSearchForWhichItemsAttachesTheTitlesOfAllTheMatches() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)]))
        _ = await tool.parameters(for: Prompt("Which trails did I hike in Utah?"))
        let result = try await tool.result(for: try #require(JSONValue.query(["terms": ["trails"]])))
        let list = try #require(result.sources.first { $0.kind == .result }?.text, "\(result.text)")
        let utah = TrailCorpus.trails.filter { $0.state == "Utah" }
        let prefix = "\(utah.count) items matched: "
        #expect(list.hasPrefix(prefix) && result.text.contains(list), "\(list)")
        #expect(Set(list.dropFirst(prefix.count).components(separatedBy: ", ")) == Set(utah.map(\.name)))

        let cut = try await tool.result(for: try #require(JSONValue.query(["terms": ["trails"], "limit": 1])))
        #expect(utah.count > 1 && cut.sources.allSatisfy { $0.kind == .item } && cut.sources.count == 1, "\(cut.text)")
    }

    /// "The average distance of my Utah trails": the average of the attribute the question
    /// names, over the items its conditions select, is quotable beside the rows, whatever the
    /// model's query; a question that names no attribute, or a query with its own statistic,
    /// gets none added.
    @Test func aSearchForAnAverageOrATotalAttachesItOverTheQuestionsConditions() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)]))
        for (question, state, total) in [("What is the average distance of my Utah trails?", "Utah", false),
                                         ("What is the total distance of the Washington trails?", "Washington", true)] {
            _ = await tool.parameters(for: Prompt(question))
            let result = try await tool.result(for: try #require(JSONValue.query(["terms": ["distance", "trails"]])))
            let miles = TrailCorpus.trails.filter { $0.state == state }.map(\.miles)
            let expected = total ? miles.reduce(0, +) : miles.reduce(0, +) / Double(miles.count)
            let sentence = try #require(result.sources.first { $0.kind == .result }?.text, "\(question): \(result.text)")
            #expect(sentence.hasPrefix(total ? "sum distance: " : "avg distance: ") && result.text.contains(sentence))
            let value = try #require(Double(sentence.dropFirst("avg distance: ".count).prefix { $0 != " " }))
            #expect(abs(value - expected) < 0.01, "\(sentence) against \(expected)")
            let names = TrailCorpus.trails.filter { $0.state == state }.map(\.name)
            #expect(sentence.contains("from \(miles.count) values: ") && names.allSatisfy(sentence.contains), "\(sentence)")
        }

        _ = await tool.parameters(for: Prompt("What is the average of my Utah trails?"))
        let unnamed = try await tool.result(for: try #require(JSONValue.query(["terms": ["trails"]])))
        #expect(unnamed.sources.allSatisfy { $0.kind == .item })
        _ = await tool.parameters(for: Prompt("What is the average distance of my Utah trails?"))
        let own = try await tool.result(for: try #require(JSONValue.query(["stages": [["stage": "statistic", "function": "max", "attribute": "rating"]]])))
        #expect(own.sources.count == 1 && own.sources.first?.kind == .result, "\(own.text)")
        #expect(own.sources.first?.answersQuestion == false, "the model's own stage: offered, not made the answer's opening")
        #expect(own.sources.first?.text.hasPrefix("max rating") == true, "\(own.text)")
    }

    @Test func anAggregateAttachesItsOwnResultAndAFetchAttachesWhatTheModelRead() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: .complete))
        let count = try await tool.result(for: try #require(JSONValue.query(["stages": [["stage": "count"]]])))
        // no item row: the tool's own result, a sentence the output holds verbatim
        let sentence = "\(TrailCorpus.trails.count) items match."
        #expect(count.sources.map(\.kind) == [.result] && count.sources.first?.text == sentence)
        #expect(count.text.contains(sentence))
        let groups = try await tool.result(for: try #require(JSONValue.query(["stages": [["stage": "groupBy", "attribute": "stateOrProvince"]]])))
        let groupText = try #require(groups.sources.first { $0.kind == .result }).text
        for line in groupText.split(separator: "\n") { #expect(groups.text.contains(line) && line.hasSuffix(".")) }
        #expect(groupText.contains("California: "))

        let id = try #require(TrailCorpus.trails.first?.id)
        let fetched = try await tool.fetchTool.result(for: .init(["id": .string(id)] as JSONValue))
        #expect(fetched.sources == [CitableSource(id: id, text: fetched.text)])
        let missing = try await tool.fetchTool.result(for: .init(["id": "trail-nowhere"] as JSONValue))
        #expect(missing.sources.isEmpty)
    }
}
