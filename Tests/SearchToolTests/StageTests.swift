import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing

/// Each stage kind returns the numbers computed directly from the corpus and by SQLite.
@Suite struct StageTests {
    func run(_ query: JSONObject, guide: Guide = .complete) async throws -> (String, [SearchReply], SearchableIndex) {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: guide))
        let arguments = try #require(JSONValue.query(query))
        let output = try await tool.call(arguments: arguments)
        let replies = await TrailCorpus.replies(of: tool, count: 1)
        return (output, replies, index)
    }

    @Test func countMatchesTheCorpus() async throws {
        let (output, replies, index) = try await run(["filters": [["attribute": "stateOrProvince", "op": "is", "value": "Utah"]],
                                                      "stages": [["stage": "count"]]])
        let expected = TrailCorpus.trails.filter { $0.state == "Utah" }.count
        guard case .count(let count) = try #require(replies.last).content else { Issue.record("no count reply"); return }
        #expect(count.value == expected)
        #expect(try await index.count(where: .compare(.stateOrProvince, .equal, .string("Utah"))) == expected)
        #expect(output.contains(expected == 1 ? "1 item matches." : "\(expected) items match."))
    }

    @Test func groupByAttributeAndMonth() async throws {
        let (_, replies, _) = try await run(["stages": [["stage": "groupBy", "attribute": "stateOrProvince"]]])
        guard case .groupedItems(let groups) = try #require(replies.last).content else { Issue.record("no groups"); return }
        let expected = Dictionary(grouping: TrailCorpus.trails, by: \.state).mapValues(\.count)
        #expect(Dictionary(uniqueKeysWithValues: groups.map { ($0.label, $0.count) }) == expected)
        for group in groups.prefix(3) { #expect(!group.items.isEmpty) }

        let (_, monthly, _) = try await run(["stages": [["stage": "groupBy", "attribute": "completionDate", "dateComponent": "month"]]])
        guard case .groupedItems(let months) = try #require(monthly.last).content else { Issue.record("no month groups"); return }
        let expectedMonths = Dictionary(grouping: TrailCorpus.trails.compactMap(\.completed), by: { String($0.prefix(7)) }).mapValues(\.count)
        #expect(Dictionary(uniqueKeysWithValues: months.map { ($0.label, $0.count) }) == expectedMonths)
    }

    @Test(arguments: [("sum", Statistic.sum), ("avg", .average), ("min", .minimum), ("max", .maximum)])
    func statisticMatchesSQL(function: String, statistic: Statistic) async throws {
        let (_, replies, index) = try await run(["filters": [["attribute": "rating", "op": ">=", "value": 3]],
                                                 "stages": [["stage": "statistic", "function": .string(function), "attribute": "duration"]]])
        guard case .statistic(let result) = try #require(replies.last).content else { Issue.record("no statistic"); return }
        let hours = TrailCorpus.trails.filter { $0.rating >= 3 }.map { $0.hours * 3600 }
        let expected: Double = switch statistic {
        case .sum: hours.reduce(0, +)
        case .average: hours.reduce(0, +) / Double(hours.count)
        case .minimum: hours.min() ?? 0
        case .maximum: hours.max() ?? 0
        }
        #expect(abs((result.value ?? .nan) - expected) < 1e-6)
        guard case .statistic(let direct?, _) = try await index.aggregate(.statistic(statistic, .duration),
                                                                           where: .compare(.rating, .greaterOrEqual, .number(3))) else {
            Issue.record("no direct statistic"); return
        }
        #expect(abs((result.value ?? .nan) - direct) < 1e-6)
    }

    @Test func statisticPerGroupIsATable() async throws {
        let (_, replies, index) = try await run(["stages": [["stage": "groupBy", "attribute": "stateOrProvince"],
                                                            ["stage": "statistic", "function": "avg", "attribute": "rating"]]])
        guard case .table(let table) = try #require(replies.last).content else { Issue.record("no table"); return }
        guard case .groups(let direct, _) = try await index.aggregate(.groupBy(.stateOrProvince, statistic: GroupStatistic(.average, of: .rating))) else {
            Issue.record("no direct groups"); return
        }
        #expect(table.rows.count == direct.count)
        for group in direct {
            let row = try #require(table.rows.firstIndex { $0.first == group.label })
            #expect(table.numbers[row].last == group.value)
            #expect(table.numbers[row][1] == Double(group.count))
        }
        #expect(replies.count == 3)
        #expect(Set(replies.map(\.stageToken)).count == 3)
        // The groupBy stage's own reply: counts and example items, no values (those are the
        // statistic's, which the same SQL pass computed).
        guard case .groupedItems(let groups) = replies[1].content else { Issue.record("no groups reply"); return }
        #expect(Dictionary(uniqueKeysWithValues: groups.map { ($0.label, $0.count) })
                == Dictionary(grouping: TrailCorpus.trails, by: \.state).mapValues(\.count))
        #expect(groups.allSatisfy { $0.value == nil })
        #expect(!(groups.first?.items.isEmpty ?? true))

        let (_, monthly, _) = try await run(["stages": [["stage": "groupBy", "attribute": "completionDate", "dateComponent": "month"],
                                                        ["stage": "statistic", "function": "max", "attribute": "rating"]]])
        guard case .table(let months) = try #require(monthly.last).content else { Issue.record("no month table"); return }
        let completed = TrailCorpus.trails.filter { $0.completed != nil }
        let expected = Dictionary(grouping: completed, by: { String(($0.completed ?? "").prefix(7)) }).mapValues { $0.map(\.rating).max() }
        #expect(Dictionary(uniqueKeysWithValues: months.rows.indices.map { (months.rows[$0][0], months.numbers[$0].last ?? nil) }) == expected)
    }

    @Test func tableAndScore() async throws {
        let (_, replies, _) = try await run(["filters": [["attribute": "stateOrProvince", "op": "is", "value": "Washington"]],
                                             "stages": [["stage": "table", "columns": ["title", "rating"]]]])
        guard case .table(let table) = try #require(replies.last).content else { Issue.record("no table"); return }
        let washington = TrailCorpus.trails.filter { $0.state == "Washington" }
        #expect(Set(table.rows.map { $0[0] }) == Set(washington.map(\.id)))
        #expect(table.columns == ["id", "title", "rating"])

        let (_, scoredReplies, _) = try await run(["limit": 3, "stages": [["stage": "score", "attribute": "distance"]]])
        guard case .scoredItems(let scored) = try #require(scoredReplies.last).content else { Issue.record("no scores"); return }
        let longest = TrailCorpus.trails.sorted { $0.miles > $1.miles }.prefix(3)
        #expect(scored.map(\.item.uniqueIdentifier) == longest.map(\.id))
        #expect(scored.map(\.score) == longest.map(\.miles))
    }

    @Test func fullTextCountAgreesWithSQLite() async throws {
        let (_, replies, index) = try await run(["terms": ["waterfall"], "stages": [["stage": "count"]]])
        guard case .count(let count) = try #require(replies.last).content else { Issue.record("no count"); return }
        let path = index.fileURL.path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        // The full-text table needs Lantern's tokenizer, which the shell lacks; the items table's
        // keyword column (elements joined by U+001F) holds the same answer.
        process.arguments = [path, "SELECT count(*) FROM items WHERE char(31) || keywords || char(31) LIKE '%' || char(31) || 'waterfall' || char(31) || '%'"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let direct = Int(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(count.value == TrailCorpus.trails.filter { $0.keywords.contains("waterfall") }.count)
        #expect(direct == count.value)
    }
}
