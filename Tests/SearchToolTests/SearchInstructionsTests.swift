import Foundation
import SearchIndex
import SearchTool
import Testing

/// The instructions are rendered from what the index holds.
@Suite struct SearchInstructionsTests {
    /// Items with text (every file, every note) used to make `render` throw: it asked the index
    /// for the distinct values of `textContent`, which the index cannot group by.
    @Test func renderDescribesAnIndexOfItemsWithText() async throws {
        let (index, _) = try await TrailCorpus.index()
        #expect(TrailCorpus.trails.allSatisfy { !$0.notes.isEmpty })
        let text = try await SearchInstructions(missingFields: ["elevation gain"]).render(for: index)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(text.contains("holds \(TrailCorpus.trails.count) items"))
        let textLine = try #require(lines.first { $0.hasPrefix("- textContent ") })
        #expect(!textLine.contains("values:"))
        let stateLine = try #require(lines.first { $0.hasPrefix("- stateOrProvince ") })
        for state in Set(TrailCorpus.trails.map(\.state)) { #expect(stateLine.contains(state), "\(stateLine)") }
        #expect(lines.contains { $0.contains("elevation gain") })
    }
}
