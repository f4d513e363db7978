import Foundation
import Testing
@testable import SearchIndex

/// A batch past `SearchableIndex.bulkLoadThreshold` drops the secondary indexes and builds them
/// again before it commits; these tests check that the committed index is whole and answers like
/// one written item by item, and that a process killed mid-bulk-load leaves the index as before.
@Suite struct BulkLoadTests {
    static let effort = CustomAttributeKey(keyName: "effort_hours")
    static let labels = CustomAttributeKey(keyName: "labels", multiValued: true)
    static let base = Date(timeIntervalSince1970: 1_714_521_600) // 2024-05-01T00:00:00Z

    static func note(_ number: Int) -> SearchableItem {
        var set = SearchableItemAttributeSet(contentType: number % 3 == 0 ? "public.html" : "public.text")
        set.title = "note \(number)"
        set.textContent = number % 100 == 7 ? "rare gannet sighting \(number)" : "ordinary words \(number)"
        set.keywords = ["tag\(number % 7)"]
        set.rating = Double(number % 5 + 1)
        set.fileSize = Double(number)
        set.contentCreationDate = base.addingTimeInterval(Double(number % 90) * 86_400)
        if let effort { set.setValue(.number(Double(number % 10)), forCustomKey: effort) }
        if let labels { set.setValue(.strings(["z\(number % 2)", "a"]), forCustomKey: labels) }
        return SearchableItem(uniqueIdentifier: "n\(number)", domainIdentifier: number % 2 == 0 ? "even" : "odd", attributeSet: set)
    }

    /// The names of the indexes in the file, and SQLite's own check that every index matches its table.
    static func indexNamesAndIntegrity(_ file: URL) throws -> (Set<String>, [String]) {
        let database = try SQLiteDatabase(path: file.path, readOnly: true)
        let names = try database.query("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") { $0.text(0) ?? "" }
        let integrity = try database.query("PRAGMA integrity_check") { $0.text(0) ?? "" }
        return (Set(names), integrity)
    }

    /// How many segments the FTS5 index has (from its structure record: a 4-byte cookie, then
    /// varints for the level and segment counts), after FTS5's own integrity check, and its
    /// merge settings.
    static func fullTextSegmentsAndSettings(_ file: URL) throws -> (Int, [String: Int]) {
        let database = try SQLiteDatabase(path: file.path, readOnly: false)
        try database.execute("INSERT INTO fts(fts) VALUES('integrity-check')")
        let structure = try database.query("SELECT block FROM fts_data WHERE id = 10") { $0.blob(0) ?? [] }.first ?? []
        var offset = 4
        func varint() -> Int {
            var value = 0
            while offset < structure.count {
                let byte = structure[offset]
                offset += 1
                value = value << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            return value
        }
        _ = varint()
        let segments = varint()
        let settings = try database.query("SELECT k, v FROM fts_config WHERE k IN ('automerge', 'crisismerge')") {
            ($0.text(0) ?? "", Int($0.integer(1)))
        }
        return (segments, Dictionary(uniqueKeysWithValues: settings))
    }

    @Test func largeBatchRebuildsIndexesAndAnswersLikeSmallWrites() async throws {
        let count = SearchableIndex.bulkLoadThreshold + 500
        let folder = try TemporaryFolder()
        let bulk = try folder.index("bulk.sqlite")
        let small = try folder.index("small.sqlite")
        let notes = (0..<count).map(Self.note)
        try await bulk.beginBatch()
        for start in stride(from: 0, to: count, by: 1_000) {
            try await bulk.indexSearchableItems(Array(notes[start..<min(count, start + 1_000)]))
        }
        // Replacing an item and deleting one after the indexes were dropped.
        try await bulk.indexSearchableItems([Self.note(count + 1)].map { item in
            var replaced = item
            replaced.uniqueIdentifier = "n5"
            return replaced
        })
        try await bulk.deleteSearchableItems(withIdentifiers: ["n6"])
        try await bulk.endBatch(clientState: Data("bulk".utf8))
        // The same writes below the threshold: each call its own transaction, indexes kept throughout.
        for start in stride(from: 0, to: count, by: 1_000) {
            try await small.indexSearchableItems(Array(notes[start..<min(count, start + 1_000)]))
        }
        try await small.indexSearchableItems([Self.note(count + 1)].map { item in
            var replaced = item
            replaced.uniqueIdentifier = "n5"
            return replaced
        })
        try await small.deleteSearchableItems(withIdentifiers: ["n6"])

        let (names, integrity) = try Self.indexNamesAndIntegrity(bulk.fileURL)
        #expect(integrity == ["ok"])
        // FTS5 wrote one segment per run of words (one run here) without merging, and merges
        // level by level again after the batch, with crisis merges still capped high.
        let (segments, settings) = try Self.fullTextSegmentsAndSettings(bulk.fileURL)
        #expect(segments == 1)
        #expect(settings == ["automerge": 4, "crisismerge": 256])
        let expected = Set(IndexSchema.secondaryIndexes.map(\.name))
        #expect(expected.isSubset(of: names), "missing: \(expected.subtracting(names))")
        #expect(try Self.indexNamesAndIntegrity(small.fileURL).0 == names)
        #expect(try await bulk.fetchLastClientState() == Data("bulk".utf8))

        let effortAttribute = try #require(Self.effort).attribute
        let labelAttribute = try #require(Self.labels).attribute
        let predicates: [QueryPredicate] = [
            .all,
            .compare(.rating, .greaterOrEqual, .number(4)),
            .compare(.fileSize, .less, .number(1_000)),
            .compare(.contentCreationDate, .greaterOrEqual, .date(Self.base.addingTimeInterval(60 * 86_400))),
            .compare(effortAttribute, .equal, .number(3)),
            .compare(labelAttribute, .equal, .string("z1")),
            .compare(.contentType, .equal, .string("public.html")),
            .fullText("gannet"),
            .and([.fullText("gannet"), .compare(.rating, .greaterOrEqual, .number(3))]),
        ]
        for predicate in predicates {
            let ids = try await bulk.ids(predicate)
            #expect(!ids.isEmpty, "\(predicate)")
            #expect(ids == (try await small.ids(predicate)), "\(predicate)")
        }
        #expect(try await bulk.count() == count - 1)
        for aggregation: SearchAggregation in [.groupBy(.rating), .groupByDate(.contentCreationDate, unit: .month),
                                               .groupBy(effortAttribute), .statistic(.sum, .fileSize), .groupBy(.keywords),
                                               .groupByDate(.contentCreationDate, unit: .week, statistic: GroupStatistic(.average, of: .rating))] {
            #expect(try await bulk.aggregate(aggregation) == (try await small.aggregate(aggregation)), "\(aggregation)")
        }
        let fetched = try await bulk.fetchItems(identifiers: ["n10"])
        #expect(fetched.first?.attributeSet[labelAttribute] == .strings(["z0", "a"]), "a multi-valued key keeps its order")

        // The domains are read from the rebuilt domain index, one seek each.
        #expect(try await bulk.domainIdentifiers() == ["even", "odd"])
        #expect(try await bulk.domainIdentifiers(limit: 1) == ["even"])
        // Deletes by domain walk the rebuilt domain index; the other domain stays.
        try await bulk.deleteSearchableItems(withDomainIdentifiers: ["even"])
        #expect(try await bulk.ids(.all) == (try await small.ids(.domain("odd"))))
        #expect(try await bulk.domainIdentifiers() == ["odd"])
    }

    @Test func processKilledMidBulkLoadLeavesIndexAsBefore() async throws {
        #expect(SearchableIndex.bulkLoadThreshold < 6_000, "the probe prints BULK-OPEN after 6,000 items")
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("crash.sqlite")
        do {
            let index = try SearchableIndex(url: file)
            try await index.beginBatch()
            try await index.indexSearchableItems(Corpus.items())
            try await index.endBatch(clientState: Data("before".utf8))
        }
        let (namesBefore, _) = try Self.indexNamesAndIntegrity(file)
        let process = Process()
        process.executableURL = try BatchTests.probeExecutable()
        process.arguments = [file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var printed = ""
        while !printed.contains("BULK-OPEN") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        #expect(printed.contains("BULK-OPEN"))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let (namesAfter, integrity) = try Self.indexNamesAndIntegrity(file)
        #expect(integrity == ["ok"])
        #expect(namesAfter == namesBefore)
        let reopened = try SearchableIndex(url: file)
        #expect(try await reopened.count() == 5)
        #expect(try await reopened.fetchLastClientState() == Data("before".utf8))
        #expect(try await reopened.search(SearchQuery(.fullText("probeword"))).isEmpty)
        #expect(try await reopened.ids(.compare(.rating, .greaterOrEqual, .number(4))) == Corpus.ids { $0.rating >= 4 })
    }
}

extension BulkLoadTests {
    /// Into an index already holding many items, a batch loads in bulk only once it has written
    /// more than a quarter of them: below that, adding item by item beats rebuilding every index.
    @Test func bulkLoadingWaitsForAQuarterOfALargeIndex() async throws {
        let threshold = SearchableIndex.bulkLoadThreshold
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let existing = 4 * (threshold + 1_000)
        try await index.beginBatch()
        for start in stride(from: 0, to: existing, by: 1_000) {
            try await index.indexSearchableItems((start..<min(existing, start + 1_000)).map(Self.note))
        }
        #expect(await index.bulkLoading, "an empty index loads a large batch in bulk")
        try await index.endBatch(clientState: Data("first".utf8))

        try await index.beginBatch()
        var written = 0
        while written <= threshold {
            try await index.indexSearchableItems((existing + written..<existing + written + 1_000).map(Self.note))
            written += 1_000
        }
        #expect(await !index.bulkLoading, "past the threshold but under a quarter of the index")
        while written <= existing / 4 {
            try await index.indexSearchableItems((existing + written..<existing + written + 1_000).map(Self.note))
            written += 1_000
        }
        #expect(await index.bulkLoading, "past a quarter of the index")
        try await index.endBatch(clientState: Data("second".utf8))
        #expect(try await index.count() == existing + written)
        #expect(try Self.indexNamesAndIntegrity(index.fileURL).1 == ["ok"])
    }
}

extension BulkLoadTests {
    /// Indexes still empty when a batch starts loading in bulk are kept (building one scans every
    /// row); items that bring that attribute later in the batch are added to them one by one.
    @Test func bulkLoadKeepsEmptyIndexesAndFillsThemItemByItem() async throws {
        let count = SearchableIndex.bulkLoadThreshold + 2_000
        let folder = try TemporaryFolder()
        let index = try folder.index()
        let notes = (0..<count).map { number in
            var item = Self.note(number)
            if number >= count - 300 { item.attributeSet.latitude = Double(number % 90) }
            return item
        }
        try await index.beginBatch()
        for start in stride(from: 0, to: count, by: 1_000) {
            try await index.indexSearchableItems(Array(notes[start..<min(count, start + 1_000)]))
        }
        let dropped = Set(await index.droppedIndexes.map(\.name))
        #expect(dropped.contains("items_rating") && dropped.contains("custom_number"))
        #expect(!dropped.contains("items_latitude") && !dropped.contains("custom_day"))
        try await index.endBatch(clientState: Data("kept".utf8))

        let (names, integrity) = try Self.indexNamesAndIntegrity(index.fileURL)
        #expect(integrity == ["ok"])
        #expect(Set(IndexSchema.secondaryIndexes.map(\.name)).isSubset(of: names))
        let expected = Set((count - 300..<count).filter { $0 % 90 >= 45 }.map { "n\($0)" })
        #expect(try await index.ids(.compare(.latitude, .greaterOrEqual, .number(45))) == expected)
        #expect(try await index.ids(.compare(.rating, .equal, .number(1))).count == (0..<count).filter { $0 % 5 == 0 }.count)
    }
}
