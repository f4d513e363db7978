import Foundation
import LocalModel
import SearchIndex
import SearchTool

/// A dozen hiking trails, indexed into a fresh SQLite file in a temporary folder.
struct Trail: Sendable {
    var id: String, name: String, state: String, rating: Double, hours: Double, miles: Double
    var keywords: [String], notes: String, completed: String?
}

enum TrailCorpus {
    static let distanceKey = CustomAttributeKey(keyName: "distance")
    static var distance: SearchableItemAttribute { SearchableItemAttribute(rawValue: "distance") }

    static let trails: [Trail] = [
        Trail(id: "trail-001", name: "Lost Lake Loop", state: "California", rating: 2, hours: 2, miles: 4.1, keywords: ["lake", "easy"], notes: "A calm lake with swimming spots.", completed: "2024-05-04"),
        Trail(id: "trail-002", name: "Eagle Falls", state: "California", rating: 3, hours: 3, miles: 5.5, keywords: ["waterfall", "moderate"], notes: "Waterfall views and a creek crossing.", completed: "2024-06-15"),
        Trail(id: "trail-003", name: "Redwood Creek", state: "California", rating: 1, hours: 1.5, miles: 3.0, keywords: ["creek", "forest", "easy"], notes: "Shaded creek under redwoods.", completed: nil),
        Trail(id: "trail-004", name: "Half Dome", state: "California", rating: 5, hours: 10, miles: 16.0, keywords: ["summit", "strenuous"], notes: "Cables to the summit. My headlamp died on the descent; bring spare batteries.", completed: "2024-07-20"),
        Trail(id: "trail-005", name: "Angels Landing", state: "Utah", rating: 5, hours: 4, miles: 5.4, keywords: ["summit", "strenuous"], notes: "Chains along a narrow ridge.", completed: "2024-04-02"),
        Trail(id: "trail-006", name: "Emerald Pools", state: "Utah", rating: 2, hours: 2, miles: 3.0, keywords: ["waterfall", "pools", "easy"], notes: "Pools fed by small waterfalls.", completed: nil),
        Trail(id: "trail-007", name: "Delicate Arch", state: "Utah", rating: 3, hours: 2.5, miles: 3.2, keywords: ["arch", "desert", "moderate"], notes: "Slickrock climb to the arch.", completed: "2024-04-03"),
        Trail(id: "trail-008", name: "Hoh River", state: "Washington", rating: 2, hours: 5, miles: 10.0, keywords: ["river", "forest", "easy"], notes: "Rainforest along the river.", completed: nil),
        Trail(id: "trail-009", name: "Mount Si", state: "Washington", rating: 4, hours: 5, miles: 8.0, keywords: ["summit", "strenuous"], notes: "Steady climb with a view of the valley.", completed: "2024-08-10"),
        Trail(id: "trail-010", name: "Skyline Trail", state: "Washington", rating: 3, hours: 4, miles: 5.5, keywords: ["meadow", "glacier", "moderate"], notes: "Wildflower meadows below the glacier.", completed: "2024-08-11"),
        Trail(id: "trail-011", name: "Cascade Pass", state: "Washington", rating: 3, hours: 4, miles: 7.4, keywords: ["pass", "glacier", "moderate"], notes: "Glacier views and marmots.", completed: nil),
        Trail(id: "trail-012", name: "Bright Angel", state: "Arizona", rating: 5, hours: 9, miles: 15.3, keywords: ["canyon", "river", "strenuous"], notes: "Down to the river in the canyon.", completed: "2024-03-15"),
    ]

    static let fetchAttributes: [SearchableItemAttribute] = [.title, .stateOrProvince, .keywords, .rating, .duration, .completionDate, distance]

    static func date(_ text: String) -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) ?? Date(timeIntervalSince1970: 0)
    }

    static let utc = TimeZone(identifier: "UTC") ?? .current

    static func item(_ trail: Trail, extra: String = "") -> SearchableItem {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = trail.name
        set.stateOrProvince = trail.state
        set.keywords = trail.keywords
        set.rating = trail.rating
        set.duration = trail.hours * 3600
        set.textContent = trail.notes + extra
        if let completed = trail.completed { set.completionDate = date(completed) }
        if let distanceKey { set.setValue(.number(trail.miles), forCustomKey: distanceKey) }
        return SearchableItem(uniqueIdentifier: trail.id, domainIdentifier: "trails", attributeSet: set)
    }

    /// A fresh index holding the trails (and `extra` items).
    static func index(extra: [SearchableItem] = []) async throws -> (SearchableIndex, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-searchtool-\(UUID().uuidString)")
        let url = folder.appendingPathComponent("trails.sqlite")
        let index = try SearchableIndex(url: url, timeZone: utc)
        try await index.indexSearchableItems(trails.map { item($0) } + extra)
        return (index, url)
    }

    static func source(_ index: SearchableIndex, delegate: (any SearchableIndexDelegate)? = nil,
                       fetch: [SearchableItemAttribute] = fetchAttributes, maximumResultCount: Int? = 20) -> SearchSource {
        .index(IndexSource(index: index, delegate: delegate, fetchAttributes: fetch, maximumResultCount: maximumResultCount,
                           customAttributeKinds: [distance: .number]))
    }

    /// Every reply until the query token's final one.
    static func replies(of tool: SearchTool, count: Int) async -> [SearchReply] {
        var result: [SearchReply] = []
        var complete = 0
        for await reply in tool.searchResults {
            result.append(reply)
            if reply.status == .complete { complete += 1 }
            if complete == count { break }
        }
        return result
    }
}

extension JSONValue {
    static func query(_ object: JSONObject) -> SearchTool.Arguments? {
        try? SearchTool.Arguments(.object(["query": .object(object)]))
    }
}
