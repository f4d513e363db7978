import Foundation
import Testing
@testable import SearchIndex

/// `checkShortlists()` compares every word's stored shortlist with FTS5 and names the words that
/// disagree; `repairShortlists()` rebuilds them, after which one-word searches rank as FTS5 does.
@Suite struct ShortlistCheckTests {
    @Test func theCheckNamesEachDisagreeingWordAndTheRepairMendsThem() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        try await index.indexSearchableItems(TermShortlistTests.items(0..<600))
        let sound = try await index.checkShortlists()
        #expect(sound.isSound, "\(sound.disagreements)")
        #expect(sound.itemCount == 600)
        #expect(sound.wordCount >= 18)

        // Four kinds of damage, made by another connection as a second writer could.
        let file = try SQLiteDatabase(path: index.fileURL.path, readOnly: false)
        try file.run("UPDATE term_shortlists SET count = count - 7 WHERE term = 'heron'")
        let reed = try #require(try file.query("SELECT data FROM term_shortlists WHERE term = 'reed'") { $0.blob(0) }.first ?? nil)
        try file.run("UPDATE term_shortlists SET data = \(SQLiteValue.blob(Array(reed.dropLast(20)))) WHERE term = 'reed'")
        try file.run("DELETE FROM term_shortlists WHERE term = 'marsh'")
        try file.run("INSERT INTO term_shortlists(term, count, data) VALUES('pelican', 3, x'10000000')")

        let check = try await index.checkShortlists()
        #expect(Set(check.disagreements.map(\.word)) == ["heron", "reed", "marsh", "pelican"], "\(check.disagreements)")
        let heron = try #require(check.disagreements.first { $0.word == "heron" })
        #expect(heron.storedItemCount + 7 == heron.fullTextItemCount)
        #expect(heron.description.contains("\(heron.fullTextItemCount)"))

        let repaired = try await index.repairShortlists()
        #expect(repaired.disagreements.map(\.word).sorted() == check.disagreements.map(\.word).sorted())
        let after = try await index.checkShortlists()
        #expect(after.isSound, "\(after.disagreements)")
        try await TermShortlistTests().expectShortlistsRankExactly(index)
        // Later writes keep them sound (the writer read the repaired rows again).
        try await index.indexSearchableItems(TermShortlistTests.items(600..<700, seed: 2))
        #expect(try await index.checkShortlists().isSound)
        try await TermShortlistTests().expectShortlistsRankExactly(index)
    }

    /// A stored shortlist may hold more members than a fresh build keeps (one that could rank
    /// when it came stays when later items dominate it; two racing writers' indexes held such
    /// members about once in twenty runs). Such a member is sound when FTS5 holds the word in it
    /// with the stored count and length; the check called it damage before.
    @Test func anExtraMemberWithFTS5sCountAndLengthIsNotDamage() async throws {
        let folder = try TemporaryFolder()
        let index = try folder.index()
        func item(_ id: String, _ text: String) -> SearchableItem {
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.textContent = text
            return SearchableItem(uniqueIdentifier: id, domainIdentifier: "notes", attributeSet: set)
        }
        try await index.indexSearchableItems([item("weak", "mud " + String(repeating: "stone ", count: 40))]
            + (0..<300).map { item("strong-\($0)", "mud mud mud reed") })
        let file = try SQLiteDatabase(path: index.fileURL.path, readOnly: false, recordingWeights: IndexSchema.fullTextWeights)
        let weak = try #require(try file.query("SELECT rowid FROM items ORDER BY rowid LIMIT 1") { $0.integer(0) }.first)
        let storedData = try file.query("SELECT data FROM term_shortlists WHERE term = 'mud'") { $0.blob(0) }.first ?? nil
        let stored = try #require(storedData)
        #expect(!(try #require(TermShortlist(stored))).members.contains { $0.rowid == weak }, "the weak item is dominated")
        let shape = try #require(try file.query("SELECT lantern_term_shape(fts) FROM fts WHERE fts MATCH 'mud' AND rowid = \(weak)") { $0.integer(0) }.first)

        // The same shortlist with the weak item added, as a writer may have kept it.
        func withMember(length: UInt32) -> [UInt8] {
            var member: [UInt8] = []
            withUnsafeBytes(of: weak) { member += $0 }
            withUnsafeBytes(of: UInt32(shape >> 32)) { member += $0 }
            withUnsafeBytes(of: length) { member += $0 }
            withUnsafeBytes(of: UInt32(300)) { member += $0 }
            return stored + member
        }
        try file.run("UPDATE term_shortlists SET data = \(SQLiteValue.blob(withMember(length: UInt32(shape & 0xFFFF_FFFF)))) WHERE term = 'mud'")
        let sound = try await index.checkShortlists()
        #expect(sound.isSound, "\(sound.disagreements)")
        try file.run("UPDATE term_shortlists SET data = \(SQLiteValue.blob(withMember(length: UInt32(shape & 0xFFFF_FFFF) + 1))) WHERE term = 'mud'")
        let damaged = try await index.checkShortlists()
        #expect(damaged.disagreements.map(\.word) == ["mud"], "\(damaged.disagreements)")
    }
}
