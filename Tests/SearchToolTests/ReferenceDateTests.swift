import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing
import TestModelSupport

/// Relative dates resolve against `Configuration.now`, so a pinned date gives the same answer
/// on any day (what evaluations rely on).
@Suite struct ReferenceDateTests {
    /// Noon UTC on `day` (YYYY-MM-DD).
    static func noon(_ day: String) -> Date { TrailCorpus.date(day).addingTimeInterval(12 * 3600) }

    func thisMonth(tool: SearchTool) async throws -> [String] {
        let output = try await tool.call(arguments: try #require(JSONValue.query(["dates": ["attribute": "completionDate", "from": "this_month"]])))
        let replies = await TrailCorpus.replies(of: tool, count: 1)
        guard case .items(let items) = try #require(replies.last).content else {
            Issue.record("no items reply: \(output)")
            return []
        }
        return items.map(\.uniqueIdentifier).sorted()
    }

    @Test(arguments: ["2024-08-15", "2024-04-20"])
    func thisMonthResolvesAgainstThePinnedDate(day: String) async throws {
        let (index, _) = try await TrailCorpus.index()
        let pinned = Self.noon(day)
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: .complete, now: { pinned }))
        let expected = TrailCorpus.trails.filter { $0.completed?.hasPrefix(String(day.prefix(7))) == true }.map(\.id).sorted()
        #expect(!expected.isEmpty)
        #expect(try await thisMonth(tool: tool) == expected)
    }

    @Test func searchSetupPassesTheDateToEachSessionsTool() async throws {
        let (index, _) = try await TrailCorpus.index()
        let pinned = Self.noon("2024-08-15")
        let setup = try await SearchSetup(index: index, guide: .complete, now: { pinned })
        let (_, tool) = setup.makeSession(model: try TestModel.shared(), window: nil, thinking: false)
        #expect(tool.configuration.now() == pinned)
        let expected = TrailCorpus.trails.filter { $0.completed?.hasPrefix("2024-08") == true }.map(\.id).sorted()
        #expect(try await thisMonth(tool: tool) == expected)
    }
}
