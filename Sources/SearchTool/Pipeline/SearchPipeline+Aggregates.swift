import Foundation
import SearchIndex

/// The SQL-backed parts of stages: groups and statistics over every source, merged.
extension SearchPipeline {
    /// A statistic of plain numbers (group counts, scores, a table column).
    static func statistic(_ function: StatisticFunction, of values: [Double], name: String) -> SearchStatistic {
        let value: Double? = switch function {
        case .sum: values.reduce(0, +)
        case .average: values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        case .minimum: values.min()
        case .maximum: values.max()
        }
        return SearchStatistic(name: name, value: value, sampleCount: values.count)
    }

    /// A statistic of an attribute, computed by each index; averages merge weighted by counts.
    func statistic(_ function: StatisticFunction, _ attribute: SearchableItemAttribute, _ predicates: [QueryPredicate]) async throws -> SearchStatistic {
        var parts: [SourceStatistic] = []
        for (source, predicate) in zip(sources, predicates) {
            guard case let .statistic(value, count) = try await source.index.aggregate(.statistic(function.statistic, attribute), where: predicate),
                  let value else { continue }
            parts.append(SourceStatistic(value: value, count: count))
        }
        let count = parts.reduce(0) { $0 + $1.count }
        let value: Double? = switch function {
        case .sum: parts.isEmpty ? nil : parts.reduce(0) { $0 + $1.value }
        case .average: count == 0 ? nil : parts.reduce(0) { $0 + $1.value * Double($1.count) } / Double(count)
        case .minimum: parts.map(\.value).min()
        case .maximum: parts.map(\.value).max()
        }
        return SearchStatistic(name: "\(function) \(attribute.rawValue)", value: value, sampleCount: count, header: request.label)
    }

    /// One source's statistic and how many values it was computed from, to merge with the others.
    private struct SourceStatistic {
        var value: Double
        var count: Int
    }

    /// Groups by an attribute's value or a date component, in every source (SQL), merged by
    /// label; the first groups carry their first few items.
    func groups(_ attribute: SearchableItemAttribute, _ unit: DateGroupingUnit?, statistic: GroupStatistic?,
                _ predicates: [QueryPredicate], withItems: Bool) async throws -> [SearchResultGroup] {
        var merged: [String: AggregationGroup] = [:]
        var order: [String] = []
        for (source, predicate) in zip(sources, predicates) {
            let aggregation: SearchAggregation = unit.map { .groupByDate(attribute, unit: $0, statistic: statistic) }
                ?? .groupBy(attribute, statistic: statistic, limit: 50)
            guard case .groups(let groups, _) = try await source.index.aggregate(aggregation, where: predicate) else { continue }
            for group in groups {
                guard var existing = merged[group.label] else {
                    merged[group.label] = group
                    order.append(group.label)
                    continue
                }
                existing.value = Self.combine(existing.value, existing.count, group.value, group.count, statistic?.statistic)
                existing.count += group.count
                merged[group.label] = existing
            }
        }
        var groups = order.compactMap { merged[$0] }
        if unit == nil { groups.sort { $0.count > $1.count } } else { groups.sort { $0.label < $1.label } }
        var result: [SearchResultGroup] = []
        for (number, group) in groups.enumerated() {
            var items: [SearchableItem] = []
            if withItems && number < Self.groupsWithItems, let source = sources.first, let predicate = predicates.first {
                let member = memberPredicate(attribute, unit, group, timeZone: source.index.timeZone)
                items = try await source.index.search(SearchQuery(.and([predicate, member]), sort: [.relevance], limit: Self.itemsPerGroup,
                                                                  fetchAttributes: source.fetchAttributes, wordsSearch: wordsSearch)).map(\.item)
            }
            result.append(SearchResultGroup(label: group.label, count: group.count, value: group.value, items: items))
        }
        return result
    }

    private static func combine(_ a: Double?, _ countA: Int, _ b: Double?, _ countB: Int, _ statistic: Statistic?) -> Double? {
        guard let a else { return b }
        guard let b else { return a }
        switch statistic {
        case .sum?: return a + b
        case .minimum?: return min(a, b)
        case .maximum?: return max(a, b)
        case .average?: return (a * Double(countA) + b * Double(countB)) / Double(max(1, countA + countB))
        case nil: return nil
        }
    }

    /// The items of one group: the value itself, or the date bucket's span.
    private func memberPredicate(_ attribute: SearchableItemAttribute, _ unit: DateGroupingUnit?, _ group: AggregationGroup,
                                 timeZone: TimeZone) -> QueryPredicate {
        switch group.key {
        case .date(let start):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let component: Calendar.Component = switch unit ?? .month {
            case .day: .day
            case .week: .weekOfYear
            case .month: .month
            case .year: .year
            }
            let end = (calendar.date(byAdding: component, value: 1, to: start) ?? start).addingTimeInterval(-0.001)
            return .inRange(attribute, lower: .date(start), upper: .date(end))
        case .string(let value):
            return attribute.standardKind == .strings ? .contains(attribute, value) : .compare(attribute, .equal, .string(value))
        case .strings(let values):
            return .and(values.map { .contains(attribute, $0) })
        case .number(let value):
            return .compare(attribute, .equal, .number(value))
        }
    }
}
