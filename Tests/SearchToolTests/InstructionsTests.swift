import Foundation
import SearchIndex
import SearchTool
import Testing

/// The instructions text rendered from the index: meanings, units, ranges, values, missing fields.
@Suite struct InstructionsTests {
    static func lines(notes: [SearchableItemAttribute: SearchInstructions.AttributeNote] = [:], missing: [String] = []) async throws -> [String] {
        let (index, _) = try await TrailCorpus.index()
        let text = try await SearchInstructions(notes: notes, missingFields: missing).render(for: index)
        return text.split(separator: "\n").map(String.init)
    }

    static func line(_ attribute: SearchableItemAttribute, in lines: [String]) throws -> String {
        try #require(lines.first { $0.hasPrefix("- \(attribute.rawValue) (") }, "no line for \(attribute.rawValue) in \(lines)")
    }

    @Test func everyAttributeHasItsMeaningUnitAndRange() async throws {
        let lines = try await Self.lines(notes: [TrailCorpus.distance: .init("trail length", unit: "miles")])
        #expect(lines.contains { $0.contains("\(TrailCorpus.trails.count) items") })
        for attribute in TrailCorpus.fetchAttributes + [.textContent] { _ = try Self.line(attribute, in: lines) }

        let duration = try Self.line(.duration, in: lines)
        #expect(duration.contains("in seconds") && duration.contains("length"))
        let hours = TrailCorpus.trails.map { $0.hours * 3600 }
        #expect(duration.contains("from \(Int(hours.min() ?? -1)) to \(Int(hours.max() ?? -1))"))

        let distance = try Self.line(TrailCorpus.distance, in: lines)
        #expect(distance.contains("in miles") && distance.contains("trail length"))
        let miles = TrailCorpus.trails.map(\.miles)
        #expect(distance.contains("from \(Int(miles.min() ?? -1)) to \(Int(miles.max() ?? -1))"))

        let ratings = TrailCorpus.trails.map(\.rating)
        #expect(try Self.line(.rating, in: lines).contains("from \(Int(ratings.min() ?? -1)) to \(Int(ratings.max() ?? -1))"))
        #expect(try Self.line(.title, in: lines).contains("title"))
        #expect(try Self.line(.textContent, in: lines).contains("full text"))
        #expect(try Self.line(.completionDate, in: lines).contains("completed"))
    }

    @Test func fewValuedAttributesListTheirValuesAndFreeTextNever() async throws {
        let lines = try await Self.lines()
        let states = Set(TrailCorpus.trails.map(\.state))
        let stateLine = try Self.line(.stateOrProvince, in: lines)
        #expect(stateLine.contains("values:"))
        for state in states { #expect(stateLine.contains(state)) }
        // Twelve titles would fit the list; they are free text all the same.
        #expect(!(try Self.line(.title, in: lines)).contains("values:"))
        #expect(!(try Self.line(.textContent, in: lines)).contains("values:"))
        // More distinct keywords than the list holds: none are listed.
        #expect(Set(TrailCorpus.trails.flatMap(\.keywords)).count > 12)
        #expect(!(try Self.line(.keywords, in: lines)).contains("values:"))
    }

    @Test func missingFieldsAreNamed() async throws {
        let without = try await Self.lines()
        #expect(!without.contains { $0.contains("do not exist") })
        let with = try await Self.lines(missing: ["elevation gain", "parking fees"])
        let line = try #require(with.first { $0.contains("do not exist") })
        #expect(line.contains("elevation gain") && line.contains("parking fees"))
    }
}
