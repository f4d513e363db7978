import Foundation
import Testing
@testable import SearchIndex

/// The query plan decides each query's path from the predicate alone, and SQL fragments keep
/// their values with their text however they are composed.
@Suite struct QueryPlanTests {
    let compiler = QueryCompiler(customKeys: [:], timeZone: Corpus.utc)

    func plan(_ predicate: QueryPredicate, hidingExpiredAt date: Date? = nil, drivers: Bool = true) throws -> QueryPlan {
        try QueryPlan(predicate, compiler: compiler, hidingExpiredAt: date, drivers: drivers)
    }

    /// The plan's case, by name.
    func path(_ predicate: QueryPredicate, hidingExpiredAt date: Date? = nil, drivers: Bool = true) throws -> String {
        switch try plan(predicate, hidingExpiredAt: date, drivers: drivers) {
        case .everything: "everything"
        case .fullTextOnly: "fullTextOnly"
        case .fullText: "fullText"
        case .listMembership: "listMembership"
        case .filter: "filter"
        }
    }

    @Test func everyItemIsEverythingOnlyWithoutAnyCondition() throws {
        #expect(try path(.all) == "everything")
        #expect(try path(.and([])) == "everything")
        #expect(try path(.all, hidingExpiredAt: Date()) == "filter")
        #expect(try path(.and([.all])) == "filter")
    }

    @Test func oneWordAloneMayRankFromItsShortlist() throws {
        guard case .fullTextOnly(let word) = try plan(.fullText("heron")) else { Issue.record("not full-text only"); return }
        #expect(word.shortlistWord == "heron")
        #expect(word.expression == #""heron""#)
        guard case .fullTextOnly(let words) = try plan(.and([.fullText("grey heron")])) else { Issue.record("not full-text only"); return }
        #expect(words.shortlistWord == nil)
        guard case .fullTextOnly(let prefix) = try plan(.fullText("her", prefix: true)) else { Issue.record("not full-text only"); return }
        #expect(prefix.shortlistWord == nil)
    }

    /// Any of several words is one FTS5 match, so BM25 ranks it; an OR that mixes in anything
    /// else stays a condition.
    @Test func anyOfSeveralWordsIsOneRankedMatch() throws {
        let anyWord = try plan(.or([.fullText("heron"), .fullText("grey egret")]))
        guard case .fullTextOnly(let match) = anyWord else { Issue.record("not full-text only"); return }
        #expect(match.expression == #"("heron") OR ("grey" AND "egret")"#)
        #expect(match.shortlistWord == nil)
        #expect(anyWord.isRanked)
        guard case .fullText(_, let filter) = try plan(.and([.or([.fullText("heron"), .fullText("egret")]), .compare(.rating, .greater, .number(2))])) else {
            Issue.record("not full text"); return
        }
        #expect(filter.bindings == [.real(2)])
        #expect(try path(.or([.fullText("heron"), .compare(.rating, .greater, .number(2))])) == "filter")
    }

    /// Several word searches side by side are one FTS5 match too, so BM25 ranks by all of
    /// their words, a prefix among them; the rest of the predicate filters.
    @Test func severalWordSearchesAreOneRankedMatch() throws {
        let both = try plan(.and([.fullText("grey heron"), .fullText("marsh", prefix: true), .compare(.rating, .greater, .number(2)),
                                  .or([.fullText("egret"), .fullText("stork")])]))
        guard case .fullText(let match, let filter) = both else { Issue.record("not full text"); return }
        #expect(match.expression == #"("grey" AND "heron") AND ("marsh"*) AND (("egret") OR ("stork"))"#)
        #expect(filter.bindings == [.real(2)])
    }

    @Test func fullTextWithMoreIsRankedAndFiltered() throws {
        let filtered = try plan(.and([.compare(.rating, .greater, .number(2)), .fullText("heron")]))
        guard case .fullText(_, let filter) = filtered else { Issue.record("not full text"); return }
        #expect(filter.bindings == [.real(2)])
        #expect(filtered.isRanked)
        #expect(filtered.condition.bindings == [.text(#""heron""#), .real(2)])
        guard case .fullText(_, let hidden) = try plan(.fullText("heron"), hidingExpiredAt: Date(timeIntervalSince1970: 7)) else {
            Issue.record("not full text"); return
        }
        #expect(hidden.bindings == [.real(7)])
        guard case .fullText(let nothing, let none) = try plan(.fullText("?!")) else { Issue.record("not full text"); return }
        #expect(nothing.expression == #""""#)
        #expect(none.text == "0")
    }

    @Test func listMembershipDrivesUnlessTheQueryJoinsItsOwnTable() throws {
        let member = try plan(.and([.contains(.keywords, "snow"), .domain("trips")]))
        guard case .listMembership = member else { Issue.record("not a list membership"); return }
        #expect(member.rowid.text == "m.item")
        #expect(member.condition.bindings == [IndexSchema.listCode(.keywords), .text("snow"), .text("trips"), .text("trips."), .text("trips/")])
        #expect(try path(.contains(.keywords, "snow"), drivers: false) == "filter")
        #expect(try path(.fullText("heron"), drivers: false) == "filter")
    }

    /// However fragments nest, the text has one `?` per value, and the values keep its order.
    @Test func fragmentsKeepTheirValuesInTextualOrder() throws {
        let inner: SQL = "b = \(2) AND c = \("three")"
        let outer: SQL = "a = \(1.5) AND (\(inner)) AND \(sql: "d") IN (\(values: [.integer(4), .integer(5)]))"
        #expect(outer.text == "a = ? AND (b = ? AND c = ?) AND d IN (?, ?)")
        #expect(outer.bindings == [.real(1.5), .integer(2), .text("three"), .integer(4), .integer(5)])
        #expect(["x = \(1)", "y", "z = \(2)"].joined(separator: " OR ").bindings == [.integer(1), .integer(2)])

        let predicates: [QueryPredicate] = [
            .and([.fullText("heron"), .not(.compare(.rating, .notEqual, .number(3))), .domain("a")]),
            .or([.inRange(.contentCreationDate, lower: .date(Corpus.base), upper: .date(Corpus.base)), .contentTypeConforms(to: "public.text")]),
            .and([.contains(.keywords, "x"), .match(.title, pattern: "P*s", kind: .wildcard, options: .caseInsensitive), .fullText("a b")]),
            .match(.textContent, pattern: "Paris", kind: .word),
        ]
        for predicate in predicates {
            for date in [nil, Corpus.base] {
                let condition = try plan(predicate, hidingExpiredAt: date).condition
                #expect(condition.text.filter { $0 == "?" }.count == condition.bindings.count, "\(predicate)")
            }
        }
    }
}
