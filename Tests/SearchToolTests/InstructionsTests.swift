import Foundation
import SearchIndex
import SearchTool
import Testing

/// The instructions text rendered from the index: meanings, units, ranges, values, missing fields.
@Suite struct InstructionsTests {
    static func lines(notes: [SearchableItemAttribute: SearchInstructions.AttributeNote] = [:], missing: [String] = [],
                      attributes: Set<SearchableItemAttribute>? = nil) async throws -> [String] {
        let (index, _) = try await TrailCorpus.index()
        let text = try await SearchInstructions(notes: notes, missingFields: missing, attributes: attributes).render(for: index)
        return text.split(separator: "\n").map(String.init)
    }

    /// The attribute's line: `- name`, then what the name does not say.
    static func line(_ attribute: SearchableItemAttribute, in lines: [String]) throws -> String {
        try #require(lines.first { $0 == "- \(attribute.rawValue)" || $0.hasPrefix("- \(attribute.rawValue) (") || $0.hasPrefix("- \(attribute.rawValue):") },
                     "no line for \(attribute.rawValue) in \(lines)")
    }

    @Test func everyAttributeHasItsMeaningUnitAndRange() async throws {
        let lines = try await Self.lines(notes: [TrailCorpus.distance: .init("trail length", unit: "miles")])
        #expect(lines.contains { $0.contains("\(TrailCorpus.trails.count) items") })
        for attribute in TrailCorpus.fetchAttributes { _ = try Self.line(attribute, in: lines) }

        let duration = try Self.line(.duration, in: lines)
        #expect(duration.contains("in seconds") && duration.contains("length"))
        let hours = TrailCorpus.trails.map { $0.hours * 3600 }
        #expect(duration.hasSuffix(": \(Int(hours.min() ?? -1)) to \(Int(hours.max() ?? -1))"))

        let distance = try Self.line(TrailCorpus.distance, in: lines)
        #expect(distance.contains("in miles") && distance.contains("trail length"))
        let miles = TrailCorpus.trails.map(\.miles)
        #expect(distance.hasSuffix(": \(Int(miles.min() ?? -1)) to \(Int(miles.max() ?? -1))"))

        let ratings = TrailCorpus.trails.map(\.rating)
        #expect(try Self.line(.rating, in: lines).hasSuffix(": \(Int(ratings.min() ?? -1)) to \(Int(ratings.max() ?? -1))"))
        #expect(try Self.line(.completionDate, in: lines) == "- completionDate (date)")
    }

    /// Each attribute is named once, with nothing its name already says: the title's line is its
    /// name alone, and the item's text has no line (the lines above it say the terms search it
    /// and the fetch tool reads it).
    @Test func linesSayOnlyWhatTheNameDoesNot() async throws {
        let lines = try await Self.lines()
        #expect(try Self.line(.title, in: lines) == "- title")
        #expect(try Self.line(.rating, in: lines).hasPrefix("- rating:"))
        #expect(!lines.contains { $0.hasPrefix("- textContent") })
        #expect(lines.contains { $0.contains("fetch_item") && $0.contains("text") })
        // The text's line named the `terms` key; the line that says how to search names it now.
        #expect(lines.contains { $0.contains("topic's words as terms") })
        for attribute in TrailCorpus.fetchAttributes {
            #expect(lines.filter { $0.hasPrefix("- \(attribute.rawValue) ") || $0.hasPrefix("- \(attribute.rawValue):") || $0 == "- \(attribute.rawValue)" }.count == 1)
        }
    }

    /// Given the attributes the model can use, only those are described.
    @Test func onlyTheGivenAttributesAreDescribed() async throws {
        let all = try await Self.lines()
        let some = try await Self.lines(attributes: [.title, .rating])
        #expect(all.filter { $0.hasPrefix("- ") }.count > 2)
        #expect(some.filter { $0.hasPrefix("- ") } == [try Self.line(.title, in: all), try Self.line(.rating, in: all)])
    }

    @Test func fewValuedAttributesListTheirValuesAndFreeTextNever() async throws {
        let lines = try await Self.lines()
        let states = Set(TrailCorpus.trails.map(\.state))
        let stateLine = try Self.line(.stateOrProvince, in: lines)
        #expect(stateLine.hasPrefix("- stateOrProvince: "))
        for state in states { #expect(stateLine.contains(state)) }
        // Twelve titles would fit the list; they are free text all the same.
        #expect(!(try Self.line(.title, in: lines)).contains(":"))
        // More distinct keywords than the list holds: none are listed.
        #expect(Set(TrailCorpus.trails.flatMap(\.keywords)).count > 12)
        #expect(try Self.line(.keywords, in: lines) == "- keywords (tags)")
    }

    @Test func missingFieldsAreNamed() async throws {
        let without = try await Self.lines()
        #expect(!without.contains { $0.contains("do not exist") })
        let with = try await Self.lines(missing: ["elevation gain", "parking fees"])
        let line = try #require(with.first { $0.contains("do not exist") })
        #expect(line.contains("elevation gain") && line.contains("parking fees"))
    }
}
