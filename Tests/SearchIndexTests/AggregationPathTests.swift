import Foundation
import Testing
@testable import SearchIndex

/// The aggregations' fast paths (day totals hashed in one scan, keyword groups without the items
/// join, statistics from a partial index) give exactly what plain SQL over the stored rows gives,
/// with missing values, filters, deletes and expired items.
@Suite struct AggregationPathTests {
    static let effort = CustomAttributeKey(keyName: "effort_hours")

    struct Note {
        var id: String, keywords: [String], created: Date?, rating: Double?, size: Double?, effort: Double, expired: Bool
    }

    /// 240 notes over about two years; some lack a date, a rating or a size; ratings and sizes are
    /// multiples of 0.5, so every sum is exact whatever order it is added in.
    static let notes: [Note] = (0..<240).map(note)

    static func note(_ n: Int) -> Note {
        let day = Double(n * 2_903 % 720)
        let created = Date(timeIntervalSince1970: 1_640_995_200 + day * 86_400 + Double(n % 5) * 3_600)
        let size = Double(100 + n * 37 % 900) / 2
        return Note(id: "n\(n)", keywords: ["k\(n % 7)", "k\(n % 3 + 10)"], created: n % 11 == 0 ? nil : created,
                    rating: n % 4 == 0 ? nil : Double(n % 9) / 2, size: n % 6 == 0 ? nil : size,
                    effort: Double(n % 13) / 2, expired: n % 17 == 0)
    }

    static func items(_ notes: [Note]) -> [SearchableItem] {
        notes.map { note in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = "note \(note.id)"
            set.textContent = note.id.hasSuffix("0") ? "alpha beta" : "beta gamma"
            set.keywords = note.keywords
            set.contentCreationDate = note.created
            set.rating = note.rating
            set.fileSize = note.size
            if let effort { set.setValue(.number(note.effort), forCustomKey: effort) }
            return SearchableItem(uniqueIdentifier: note.id, domainIdentifier: "notes", attributeSet: set,
                                  expirationDate: note.expired ? Date(timeIntervalSinceNow: -60) : nil)
        }
    }

    /// Month/day/year groups computed by plain SQL over the stored `items` rows (strftime per row).
    static func expectedGroups(_ file: URL, format: String, statistic: String, value: String, where condition: String = "1")
        throws -> [String: (count: Int, value: Double?)] {
        let database = try SQLiteDatabase(path: file.path, readOnly: true)
        let rows = try database.query("""
            SELECT strftime('\(sql: format)', contentCreationDate, 'unixepoch'), count(*), \(sql: statistic)(\(sql: value)) FROM items i
            WHERE contentCreationDate IS NOT NULL AND (\(sql: condition)) GROUP BY 1
            """) { ($0.text(0) ?? "", Int($0.integer(1)), $0.isNull(2) ? nil : $0.double(2)) }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.0, (count: $0.1, value: $0.2)) })
    }

    @Test(arguments: [(DateGroupingUnit.month, "%Y-%m"), (.day, "%Y-%m-%d"), (.year, "%Y")])
    func dateGroupsWithStatisticsMatchPlainSQL(unit: DateGroupingUnit, format: String) async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(Self.items(Self.notes))
        let effortValue = "(SELECT number FROM custom_values WHERE key = 'effort_hours' AND item = i.rowid)"
        let cases: [(Statistic, SearchableItemAttribute, String, String, QueryPredicate, String)] = [
            (.average, .rating, "avg", "rating", .all, "1"),
            (.minimum, .rating, "min", "rating", .all, "1"),
            (.maximum, .fileSize, "max", "fileSize", .all, "1"),
            (.sum, .fileSize, "total", "fileSize", .compare(.rating, .greaterOrEqual, .number(2)), "rating >= 2"),
            (.average, Self.effort?.attribute ?? .rating, "avg", effortValue, .all, "1"),
            (.sum, .rating, "total", "rating", .fullText("alpha"), "i.rowid IN (SELECT rowid FROM fts WHERE fts MATCH 'alpha')"),
        ]
        for (statistic, attribute, function, value, predicate, condition) in cases {
            guard case let .groups(groups, complete) = try await index.aggregate(
                .groupByDate(.contentCreationDate, unit: unit, statistic: GroupStatistic(statistic, of: attribute)), where: predicate) else {
                Issue.record("not groups"); continue
            }
            let expected = try Self.expectedGroups(folder.url.appendingPathComponent("test.sqlite"), format: format,
                                                   statistic: function, value: value, where: condition)
            #expect(complete)
            #expect(!expected.isEmpty)
            #expect(groups.map(\.label) == expected.keys.sorted(), "\(function)(\(value)) where \(condition)")
            for group in groups {
                #expect(group.count == expected[group.label]?.count, "\(group.label) \(function)(\(value))")
                #expect(group.value == expected[group.label]?.value, "\(group.label) \(function)(\(value))")
            }
        }
    }

    /// The notes indexed, then those whose id ends in `suffix` deleted; the notes still live
    /// (neither deleted nor expired). The folder keeps the index file alive.
    static func indexedWithDeletes(suffix: String) async throws -> (TemporaryFolder, SearchableIndex, live: [Note]) {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(items(notes))
        let deleted = Set(notes.filter { $0.id.hasSuffix(suffix) }.map(\.id))
        try await index.deleteSearchableItems(withIdentifiers: Array(deleted))
        return (folder, index, notes.filter { !$0.expired && !deleted.contains($0.id) })
    }

    @Test func keywordGroupsAndStatisticsFollowDeletesAndExpiry() async throws {
        let (folder, index, live) = try await Self.indexedWithDeletes(suffix: "3")
        defer { withExtendedLifetime(folder) {} }

        let counts = try await index.distinctValues(of: .keywords, limit: 100)
        let expectedCounts = Dictionary(grouping: live.flatMap(\.keywords), by: { $0 }).mapValues(\.count)
        #expect(counts.isComplete)
        #expect(Dictionary(uniqueKeysWithValues: counts.values.map { ($0.value.description, $0.count) }) == expectedCounts)

        let sizes = live.compactMap(\.size)
        #expect(try await index.aggregate(.statistic(.average, .fileSize)) == .statistic(sizes.reduce(0, +) / Double(sizes.count), count: sizes.count))
        let rated = live.filter { ($0.rating ?? 0) >= 3 }.compactMap(\.size)
        #expect(try await index.aggregate(.statistic(.sum, .fileSize), where: .compare(.rating, .greaterOrEqual, .number(3)))
                == .statistic(rated.reduce(0, +), count: rated.count))
        let efforts = live.map(\.effort)
        #expect(try await index.aggregate(.statistic(.maximum, Self.effort?.attribute ?? .rating)) == .statistic(efforts.max(), count: efforts.count))
    }

    @Test func keywordGroupsInsideABatchHideExpiredItems() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        // Committed outside a batch, the expired items stay stored until a read purges them; a
        // read inside a batch cannot purge, so it hides them in SQL instead.
        try await index.indexSearchableItems(Self.items(Self.notes))
        try await index.beginBatch()
        let counts = try await index.distinctValues(of: .keywords, limit: 100)
        let grouped = try await index.aggregate(.groupByDate(.contentCreationDate, unit: .year, statistic: GroupStatistic(.sum, of: .fileSize)))
        try await index.endBatch(clientState: Data())
        let live = Self.notes.filter { !$0.expired }
        let expected = Dictionary(grouping: live.flatMap(\.keywords), by: { $0 }).mapValues(\.count)
        #expect(Dictionary(uniqueKeysWithValues: counts.values.map { ($0.value.description, $0.count) }) == expected)
        guard case let .groups(years, _) = grouped else { Issue.record("not groups"); return }
        #expect(years.map(\.count).reduce(0, +) == live.filter { $0.created != nil }.count)
        #expect(years.compactMap(\.value).reduce(0, +) == live.filter { $0.created != nil }.compactMap(\.size).reduce(0, +))
    }

    /// A keyword membership drives the query from the keyword's rows: searches (paged, filtered,
    /// sorted), counts, statistics and groups give what the notes themselves say, after deletes
    /// and with expired items hidden, and pages come in indexing order.
    @Test func keywordMembershipDrivesSearchesCountsAndGroups() async throws {
        let (folder, index, live) = try await Self.indexedWithDeletes(suffix: "4")
        defer { withExtendedLifetime(folder) {} }
        let members = live.filter { $0.keywords.contains("k2") }
        let member = QueryPredicate.contains(.keywords, "k2")

        func ids(_ query: SearchQuery) async throws -> [String] { try await index.search(query).map(\.item.uniqueIdentifier) }
        #expect(try await ids(SearchQuery(member, limit: nil)) == members.map(\.id))
        #expect(try await ids(SearchQuery(member, limit: 3, offset: 2)) == Array(members.map(\.id)[2..<5]))
        let rated = members.filter { ($0.rating ?? 0) >= 2 }
        let filtered = QueryPredicate.and([.compare(.rating, .greaterOrEqual, .number(2)), member, .contains(.keywords, "k12")])
        #expect(try await ids(SearchQuery(filtered, limit: nil)) == rated.filter { $0.keywords.contains("k12") }.map(\.id))
        let sorted = try await ids(SearchQuery(.and([member, .exists(.fileSize)]), sort: [.attribute(.fileSize, ascending: false)], limit: 4))
        #expect(sorted.count == 4)
        #expect(sorted.compactMap { id in Self.notes.first { $0.id == id }?.size } == Array(members.compactMap(\.size).sorted(by: >).prefix(4)))

        #expect(try await index.aggregate(.count, where: member) == .count(members.count))
        #expect(try await index.aggregate(.count, where: .and([member, .compare(.rating, .greaterOrEqual, .number(2))])) == .count(rated.count))
        let sizes = members.compactMap(\.size)
        #expect(try await index.aggregate(.statistic(.sum, .fileSize), where: member) == .statistic(sizes.reduce(0, +), count: sizes.count))
        guard case let .groups(groups, _) = try await index.aggregate(.groupBy(.rating), where: member) else {
            Issue.record("not groups"); return
        }
        let expected = Dictionary(grouping: members.compactMap(\.rating), by: { $0 }).mapValues(\.count)
        #expect(Dictionary(uniqueKeysWithValues: groups.map { ($0.key.description, $0.count) })
                == Dictionary(uniqueKeysWithValues: expected.map { (AttributeValue.number($0.key).description, $0.value) }))
        guard case let .groups(years, _) = try await index.aggregate(.groupByDate(.contentCreationDate, unit: .year), where: member) else {
            Issue.record("not groups"); return
        }
        #expect(years.map(\.count).reduce(0, +) == members.filter { $0.created != nil }.count)
    }

    /// Unfiltered keyword groups come from the counts every write keeps; after replaces, a failed
    /// call, domain deletes, a rolled-back batch and a delete-all they equal the membership rows.
    @Test func keptKeywordCountsEqualTheMembershipRows() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let file = folder.url.appendingPathComponent("test.sqlite")
        func check(_ step: String) async throws {
            let kept = try await index.distinctValues(of: .keywords, limit: 1_000)
            let database = try SQLiteDatabase(path: file.path, readOnly: true)
            let rows = try database.query(
                "SELECT lv.value, count(*) FROM list_values lv JOIN items i ON i.rowid = lv.item WHERE lv.attribute = \(IndexSchema.listCode(.keywords)) GROUP BY lv.value") {
                ($0.text(0) ?? "", Int($0.integer(1)))
            }
            #expect(Dictionary(uniqueKeysWithValues: kept.values.map { ($0.value.description, $0.count) })
                    == Dictionary(uniqueKeysWithValues: rows.map { ($0.0, $0.1) }), "\(step)")
        }
        let notes = Self.notes.map { note in var note = note; note.expired = false; return note }
        try await index.indexSearchableItems(Self.items(notes))
        try await check("indexed")
        var replaced = Self.items(Array(notes.prefix(40)))
        for position in replaced.indices { replaced[position].attributeSet.keywords = ["k\(position % 4)", "fresh"] }
        try await index.indexSearchableItems(replaced)
        try await check("replaced")
        var bad = Self.items([Self.note(1_000)])
        bad[0].attributeSet[.rating] = .string("not a number")
        await #expect(throws: SearchIndexError.self) { try await index.indexSearchableItems(Self.items([Self.note(1_001)]) + bad) }
        try await check("failed call")
        try await index.deleteSearchableItems(withIdentifiers: notes.filter { $0.id.hasSuffix("5") }.map(\.id))
        try await check("deleted by identifier")
        try await index.beginBatch()
        try await index.indexSearchableItems(Self.items((2_000..<2_100).map(Self.note)))
        try await index.deleteSearchableItems(withDomainIdentifiers: ["notes"])
        try await index.endBatch(clientState: Data())
        try await check("batch with a domain delete")
        try await index.deleteAllSearchableItems()
        try await check("deleted all")
        #expect(try await index.distinctValues(of: .keywords).values.isEmpty)
    }

    /// Day keys near the first one and far from it (centuries apart, before and after) all keep
    /// exact totals through the blob SQLite hands back.
    @Test func groupTotalsKeepNearAndFarKeys() throws {
        let accumulator = GroupTotalsAccumulator()
        var expected: [Int64: GroupTotals] = [:]
        let keys: [Int64] = [19_000, 19_001, 19_000, 14_905, 14_904, 35_000, -25_567, 19_000 + 12_287, 19_000 + 12_288]
        for (number, key) in keys.enumerated() {
            let value: Double? = number % 3 == 2 ? nil : Double(number) / 2
            accumulator.add(key: key, value: value)
            expected[key, default: GroupTotals()].add(value)
        }
        #expect(accumulator.groups == expected)
        #expect(GroupTotalsAccumulator.decode(accumulator.encoded()) == expected)
        #expect(GroupTotalsAccumulator.decode([1, 2, 3]) == nil)
    }
}
