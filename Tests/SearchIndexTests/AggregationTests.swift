import Foundation
import Testing
@testable import SearchIndex

@Suite struct AggregationTests {
    let folder: TemporaryFolder
    let index: SearchableIndex

    init() async throws {
        (folder, index) = try await Corpus.freshIndex()
    }

    @Test func countAndStatistics() async throws {
        #expect(try await index.aggregate(.count, where: .domain("trips")) == .count(Corpus.ids { $0.domain.hasPrefix("trips") }.count))
        #expect(try await index.count(where: .fullText("trail")) == Corpus.ids { $0.keywords.contains("trail") }.count)
        let ratings = Corpus.rows.map(\.rating)
        #expect(try await index.aggregate(.statistic(.sum, .rating)) == .statistic(ratings.reduce(0, +), count: ratings.count))
        #expect(try await index.aggregate(.statistic(.average, .rating)) == .statistic(ratings.reduce(0, +) / Double(ratings.count), count: 5))
        #expect(try await index.aggregate(.statistic(.minimum, .rating)) == .statistic(ratings.min(), count: 5))
        #expect(try await index.aggregate(.statistic(.maximum, Corpus.distance!.attribute)) == .statistic(Corpus.rows.map(\.distance).max(), count: 5))
        #expect(try await index.aggregate(.statistic(.sum, .pageCount)) == .statistic(0, count: 0))
    }

    @Test func groupByAttributesWithCounts() async throws {
        guard case let .groups(groups, complete) = try await index.aggregate(.groupBy(.stateOrProvince, statistic: GroupStatistic(.average, of: .rating))) else {
            Issue.record("not groups"); return
        }
        #expect(complete)
        let expected = Dictionary(grouping: Corpus.rows, by: \.state)
        #expect(Dictionary(uniqueKeysWithValues: groups.map { ($0.label, $0.count) }) == expected.mapValues(\.count))
        for group in groups {
            let rows = expected[group.label] ?? []
            #expect(group.value == rows.map(\.rating).reduce(0, +) / Double(rows.count))
        }
        let keywords = try await index.distinctValues(of: .keywords, limit: 3)
        #expect(!keywords.isComplete)
        #expect(keywords.values.count == 3)
        let all = try await index.distinctValues(of: .keywords)
        let keywordCounts = Dictionary(grouping: Corpus.rows.flatMap(\.keywords), by: { $0 }).mapValues(\.count)
        #expect(all.isComplete)
        #expect(Dictionary(uniqueKeysWithValues: all.values.map { ($0.value.description, $0.count) }) == keywordCounts)
        #expect(all.values.map(\.count) == all.values.map(\.count).sorted(by: >))
    }

    @Test(arguments: DateGroupingUnit.allCases)
    func groupByDateComponents(unit: DateGroupingUnit) async throws {
        guard case let .groups(groups, _) = try await index.aggregate(.groupByDate(.completionDate, unit: unit, statistic: GroupStatistic(.sum, of: .rating))) else {
            Issue.record("not groups"); return
        }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = Corpus.utc
        let component: Calendar.Component = switch unit {
        case .day: .day
        case .week: .weekOfYear
        case .month: .month
        case .year: .year
        }
        let expected = Dictionary(grouping: Corpus.rows) { calendar.dateInterval(of: component, for: $0.completed)?.start ?? .distantPast }
        #expect(groups.map(\.key) == expected.keys.sorted().map(AttributeValue.date))
        for group in groups {
            guard case .date(let start) = group.key else { continue }
            #expect(group.count == expected[start]?.count)
            #expect(group.value == expected[start]?.map(\.rating).reduce(0, +))
        }
        let formatter = DateFormatter()
        formatter.timeZone = Corpus.utc
        formatter.dateFormat = unit == .month ? "yyyy-MM" : unit == .year ? "yyyy" : unit == .day ? "yyyy-MM-dd" : "YYYY-'W'ww"
        formatter.calendar = calendar
        for group in groups { if case .date(let start) = group.key { #expect(group.label == formatter.string(from: start)) } }
    }

    @Test func catalogueCountsPresentAttributes() async throws {
        let catalogue = try await index.attributeCatalogue()
        let counts = Dictionary(uniqueKeysWithValues: catalogue.map { ($0.attribute, $0.itemCount) })
        #expect(counts[.title] == 5)
        #expect(counts[.textContent] == 5)
        #expect(counts[Corpus.distance!.attribute] == 5)
        #expect(counts[.dueDate] == nil)
    }
}
