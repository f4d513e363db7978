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
}
