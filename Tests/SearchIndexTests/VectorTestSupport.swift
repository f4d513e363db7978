import Foundation
import Synchronization
@testable import SearchIndex

/// A deterministic embedder for the storage and fusion rules: one dimension per concept, a
/// text's vector counting the words of each concept it holds (plus a constant dimension, so no
/// vector is zero). "moisture" and "damp" share a concept and no word, as a paraphrase does.
final class ConceptEmbedder: TextEmbedder {
    static let concepts: [[String]] = [
        ["water", "damp", "moisture", "leak", "leaking", "wet", "rain", "seeping"],
        ["boiler", "heating", "radiator", "warm", "furnace"],
        ["car", "tyre", "tyres", "engine", "garage", "brakes"],
        ["cake", "recipe", "bake", "dessert", "flour"],
    ]
    let identity: String
    let dimension = concepts.count + 1
    /// When set, `embed` throws (an embedding model that failed).
    let failing: Bool
    /// Every text `embed` was given, in order.
    let embedded = Mutex<[String]>([])

    init(identity: String = "concepts-v1", failing: Bool = false) {
        self.identity = identity
        self.failing = failing
    }

    struct Failure: Error {}

    func embed(_ texts: [String]) async throws -> [[Float]] {
        if failing { throw Failure() }
        embedded.withLock { $0 += texts }
        return texts.map(Self.vector)
    }

    static func vector(_ text: String) -> [Float] {
        let words = text.lowercased().split { !$0.isLetter }.map(String.init)
        return concepts.map { concept in Float(words.filter(concept.contains).count) } + [0.1]
    }
}

/// An embedder that returns vectors of the wrong length.
struct ShortVectorEmbedder: TextEmbedder {
    let identity = "short"
    let dimension = 4
    func embed(_ texts: [String]) async throws -> [[Float]] { texts.map { _ in [1, 0] } }
}

extension TemporaryFolder {
    func index(_ name: String = "test.sqlite", embedder: (any TextEmbedder)?) throws -> SearchableIndex {
        try SearchableIndex(url: url.appendingPathComponent(name), timeZone: Corpus.utc, embedder: embedder)
    }

    /// A number from the index file, read on a connection of its own (what is committed).
    func count(_ sql: String, in name: String = "test.sqlite") throws -> Int64 {
        let database = try SQLiteDatabase(path: url.appendingPathComponent(name).path, readOnly: true)
        return try database.query(SQL(sql: sql)) { $0.integer(0) }.first ?? -1
    }
}

enum Notes {
    static func item(_ id: String, title: String, text: String, domain: String = "notes") -> SearchableItem {
        var set = SearchableItemAttributeSet(contentType: "public.plain-text")
        set.title = title
        set.textContent = text
        return SearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: set)
    }

    static let all: [SearchableItem] = [
        item("damp", title: "Bedroom window", text: "Damp patch under the sill after the storm; the plasterer resealed it."),
        item("boiler", title: "Boiler service", text: "Annual boiler service, radiator bled, pressure topped up.", domain: "house"),
        item("car", title: "Garage visit", text: "Tyres rotated and brakes checked at the garage."),
        item("cake", title: "Birthday cake", text: "Recipe: flour, eggs, butter; bake forty minutes."),
    ]
}
