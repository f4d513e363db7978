import Foundation
import SearchIndex

/// Renders a description of an index for the session's instructions: each attribute present
/// with its kind, meaning and unit (and its values or range), and the fields that do not exist,
/// so the model neither misreads `rating` nor invents an elevation. The seeds show retrieval
/// quality lives in these instructions (§3.1), so they are generated from the index, not
/// written by hand beside it.
public struct SearchInstructions: Sendable {
    /// What an attribute means, and its unit.
    public struct AttributeNote: Sendable, Hashable {
        public var meaning: String
        public var unit: String?
        public init(_ meaning: String, unit: String? = nil) {
            self.meaning = meaning
            self.unit = unit
        }
    }

    /// Notes that override or add to the standard ones (custom keys need one).
    public var notes: [SearchableItemAttribute: AttributeNote]
    /// Things users may ask about that the index does not hold ("elevation gain").
    public var missingFields: [String]
    public var toolName: String
    public var fetchToolName: String

    public init(notes: [SearchableItemAttribute: AttributeNote] = [:], missingFields: [String] = [],
                toolName: String = "spotlight_search", fetchToolName: String = "fetch_item") {
        self.notes = notes
        self.missingFields = missingFields
        self.toolName = toolName
        self.fetchToolName = fetchToolName
    }

    /// Meanings and units of the standard attributes whose unit is not obvious.
    static let standardNotes: [SearchableItemAttribute: AttributeNote] = [
        .title: AttributeNote("the item's title"),
        .textContent: AttributeNote("the full text (searchable with terms; read it with the fetch tool)"),
        .contentDescription: AttributeNote("a short description"),
        .keywords: AttributeNote("tags"),
        .duration: AttributeNote("length", unit: "seconds"),
        .fileSize: AttributeNote("size", unit: "bytes"),
        .latitude: AttributeNote("latitude", unit: "degrees"),
        .longitude: AttributeNote("longitude", unit: "degrees"),
        .altitude: AttributeNote("altitude", unit: "meters"),
        .rating: AttributeNote("a rating"),
        .contentCreationDate: AttributeNote("when it was created"),
        .contentModificationDate: AttributeNote("when it was last changed"),
        .completionDate: AttributeNote("when it was completed"),
    ]

    /// Attributes whose values are free text, never a short list worth showing (not even read).
    static let freeTextAttributes: Set<SearchableItemAttribute> = [.title, .textContent]
    /// A string attribute's values are listed when it has at most this many.
    static let listedValuesLimit = 12

    /// The description, read from the index now (attribute catalogue, ranges, few values).
    public func render(for index: SearchableIndex) async throws -> String {
        let catalogue = try await index.attributeCatalogue()
        let total = try await index.count()
        var lines = [
            "Always call \(toolName) before answering a question about the user's items; never answer from memory.",
            "The index holds \(total) items. Search with the topic's words. Results show ids and attributes only: call \(fetchToolName) with an id before saying what an item's text says.",
            "Attributes:",
        ]
        for summary in catalogue {
            let note = notes[summary.attribute] ?? Self.standardNotes[summary.attribute]
            var line = "- \(summary.attribute.rawValue) (\(summary.kind)"
            if let unit = note?.unit { line += ", in \(unit)" }
            line += ")"
            if let meaning = note?.meaning { line += ": \(meaning)" }
            switch summary.kind {
            case .number:
                if case .statistic(let low?, _) = try await index.aggregate(.statistic(.minimum, summary.attribute)),
                   case .statistic(let high?, _) = try await index.aggregate(.statistic(.maximum, summary.attribute)) {
                    line += "; from \(Self.number(low)) to \(Self.number(high))"
                }
            case .string where !Self.freeTextAttributes.contains(summary.attribute),
                 .strings where !Self.freeTextAttributes.contains(summary.attribute):
                let distinct = try await index.distinctValues(of: summary.attribute, limit: Self.listedValuesLimit)
                if distinct.isComplete {
                    line += "; values: " + distinct.values.map { TextFraming.singleLine($0.value.description) }.joined(separator: ", ")
                }
            case .string, .strings, .date:
                break
            }
            lines.append(line)
        }
        if !missingFields.isEmpty {
            lines.append("These fields do not exist in the index; if asked, say they are not available and do not guess: \(missingFields.joined(separator: ", ")).")
        }
        lines.append("If nothing matches, say so; never invent items.")
        return lines.joined(separator: "\n")
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.4g", value)
    }
}
