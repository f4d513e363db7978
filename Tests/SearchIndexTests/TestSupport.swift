import Foundation
@testable import SearchIndex

/// A fresh temporary folder per test, removed when the value is dropped.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-index-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func index(_ name: String = "test.sqlite", timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current) throws -> SearchableIndex {
        try SearchableIndex(url: url.appendingPathComponent(name), timeZone: timeZone)
    }
}

/// A small corpus with every kind of attribute, and the same data for computing expectations in Swift.
enum Corpus {
    static let utc = TimeZone(identifier: "UTC") ?? .current
    static let base = Date(timeIntervalSince1970: 1_714_521_600) // 2024-05-01T00:00:00Z
    static let distance = CustomAttributeKey(keyName: "distance_miles")

    struct Row {
        var id: String, title: String, body: String, keywords: [String], state: String
        var rating: Double, completed: Date, domain: String, type: String, distance: Double
    }

    static let rows: [Row] = [
        Row(id: "a", title: "Paris walk", body: "A long walk along the Seine river in Paris", keywords: ["city", "river"],
            state: "Île-de-France", rating: 4, completed: base.addingTimeInterval(-2 * 86_400), domain: "trips.europe",
            type: "public.text", distance: 5.5),
        Row(id: "b", title: "Crème brûlée recipe", body: "Custard with caramelized sugar, a French dessert", keywords: ["dessert", "french"],
            state: "Normandie", rating: 5, completed: base.addingTimeInterval(-40 * 86_400), domain: "recipes",
            type: "public.plain-text", distance: 0),
        Row(id: "c", title: "Mountain hike", body: "Steep trail to the summit with snow", keywords: ["trail", "snow"],
            state: "Colorado", rating: 3, completed: base.addingTimeInterval(-10 * 86_400), domain: "trips.usa",
            type: "public.text", distance: 12.25),
        Row(id: "d", title: "PARIS museum day", body: "The Louvre and Orsay museums", keywords: ["city", "art"],
            state: "Île-de-France", rating: 2, completed: base.addingTimeInterval(-70 * 86_400), domain: "trips.europe",
            type: "public.text", distance: 2),
        Row(id: "e", title: "Lake loop", body: "Easy loop around a quiet lake", keywords: ["trail", "lake"],
            state: "Colorado", rating: 4, completed: base.addingTimeInterval(-100 * 86_400), domain: "trips.usa",
            type: "public.text", distance: 3.75),
    ]

    /// The corpus indexed into a fresh index in a new temporary folder (kept alive by the caller).
    static func freshIndex() async throws -> (TemporaryFolder, SearchableIndex) {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(items())
        return (folder, index)
    }

    static func items() -> [SearchableItem] {
        rows.map { row in
            var set = SearchableItemAttributeSet(contentType: row.type)
            set.title = row.title
            set.textContent = row.body
            set.keywords = row.keywords
            set.stateOrProvince = row.state
            set.rating = row.rating
            set.completionDate = row.completed
            if let distance { set.setValue(.number(row.distance), forCustomKey: distance) }
            return SearchableItem(uniqueIdentifier: row.id, domainIdentifier: row.domain, attributeSet: set)
        }
    }

    static func ids(_ include: (Row) -> Bool) -> Set<String> { Set(rows.filter(include).map(\.id)) }
}

extension SearchableIndex {
    func ids(_ predicate: QueryPredicate) async throws -> Set<String> {
        Set(try await search(SearchQuery(predicate, limit: nil)).map(\.item.uniqueIdentifier))
    }
}
