import Foundation
import LocalModel
import SearchIndex

/// Runs one query: the search on every source, then each stage on the previous output, inside
/// SQLite wherever the data is still "the items matching the predicate" (counts, groups and
/// statistics never load the items). Emits one reply per stage.
struct SearchPipeline: Sendable {
    let request: SearchRequest
    let sources: [ResolvedSource]
    let capabilities: QueryCapabilities
    let contactResolver: (any ContactResolver)?
    let hydrator: Hydrator
    let formatter: ResultFormatter
    let now: Date
    static let defaultLimit = 10
    static let itemsPerGroup = 3
    static let groupsWithItems = 5

    /// What flows between stages: still a predicate per source, or computed data.
    enum Value: Sendable {
        case matching([QueryPredicate])
        /// Groups, with the statistic their values hold when the next stage asked for one.
        case grouped(SearchableItemAttribute, DateGroupingUnit?, [SearchResultGroup], [QueryPredicate], GroupStatistic?)
        case data(SearchPipelineData)

        var type: SearchPipelineDataType {
            switch self {
            case .matching: .items
            case .grouped: .groupedItems
            case .data(let data): data.type
            }
        }
    }

    struct Outcome: Sendable {
        var matched: Int
        var items: [SearchableItem]
        var final: SearchPipelineData?
        var notes: [String]
    }

    func run(emit: (SearchPipelineData, _ stage: Int, _ isLast: Bool) -> Void) async throws -> Outcome {
        var notes: [String] = []
        var predicates = try sources.map { try predicate(for: $0, anyTerm: false) }
        var (items, matched, hydrationNotes) = try await search(predicates)
        if matched == 0 && request.terms.count > 1 {
            predicates = try sources.map { try predicate(for: $0, anyTerm: true) }
            (items, matched, hydrationNotes) = try await search(predicates)
            if matched > 0 { notes.append("No item has all of the terms; these have at least one.") }
        }
        if matched == 0, let hint = try await emptyResultHint() { notes.append(hint) }
        notes += hydrationNotes
        emit(.items(items), 0, request.stages.isEmpty)
        var value = Value.matching(predicates)
        var final: SearchPipelineData?
        for (number, stage) in request.stages.enumerated() {
            let next = request.stages.indices.contains(number + 1) ? request.stages[number + 1] : nil
            value = try await apply(stage, to: value, matched: matched, items: items, next: next)
            let data = Self.data(of: value)
            emit(data, number + 1, number == request.stages.count - 1)
            final = data
            if case .data(let produced) = value, !produced.items.isEmpty { items = produced.items }
        }
        return Outcome(matched: matched, items: items, final: final, notes: notes)
    }

    private static func data(of value: Value) -> SearchPipelineData {
        switch value {
        case .matching: .items([])
        // values computed ahead for the next stage are that stage's to show
        case .grouped(_, _, let groups, _, _): .groupedItems(groups.map { SearchResultGroup(label: $0.label, count: $0.count, items: $0.items) })
        case .data(let data): data
        }
    }

    // MARK: The search

    /// When nothing matched but the date range or the filters alone excluded every match, says
    /// how many match without them, so the model (or a reader of the trace) can tell a condition
    /// it added from an empty index.
    private func emptyResultHint() async throws -> String? {
        func count(dates: Bool, filters: Bool) async throws -> Int {
            var total = 0
            for source in sources {
                total += try await source.index.count(where: try predicate(for: source, anyTerm: false, dates: dates, filters: filters))
            }
            return total
        }
        func items(_ count: Int) -> String { count == 1 ? "1 item matches" : "\(count) items match" }
        if request.dates != nil, case let count = try await count(dates: false, filters: true), count > 0 {
            return "None in that date range; \(items(count)) without it."
        }
        if !request.filters.isEmpty, case let count = try await count(dates: true, filters: false), count > 0 {
            return "None pass the filters; \(items(count)) without them."
        }
        return nil
    }

    private func predicate(for source: ResolvedSource, anyTerm: Bool, dates includeDates: Bool = true,
                           filters includeFilters: Bool = true) throws(SearchToolError) -> QueryPredicate {
        var parts: [QueryPredicate] = []
        if !request.terms.isEmpty {
            parts.append(anyTerm ? .or(request.terms.map { .fullText($0) }) : .fullText(request.terms.joined(separator: " ")))
        }
        for filter in includeFilters ? request.filters : [] {
            switch filter {
            case let .text(attribute, exact, value):
                try check(attribute, in: capabilities.stringAttributes, "a text filter")
                let isList = attribute.standardKind == .strings
                parts.append(exact
                    ? (isList ? .contains(attribute, value) : .match(attribute, pattern: value, kind: .exact, options: [.caseInsensitive, .diacriticInsensitive]))
                    : .match(attribute, pattern: value, kind: .contains, options: [.caseInsensitive, .diacriticInsensitive]))
            case let .number(attribute, op, value):
                try check(attribute, in: capabilities.numericAttributes, "a number filter")
                parts.append(.compare(attribute, op, .number(value)))
            case let .person(attribute, value):
                try check(attribute, in: capabilities.peopleAttributes, "a person filter")
                let lowered = value.lowercased()
                if ["me", "i", "my", "myself"].contains(lowered), let contactResolver {
                    let identity = contactResolver.userIdentity().allValues
                    parts.append(.or(identity.map { .match(attribute, pattern: $0, kind: .exact, options: [.caseInsensitive]) }))
                } else {
                    parts.append(.match(attribute, pattern: value, kind: .contains, options: [.caseInsensitive, .diacriticInsensitive]))
                }
            }
        }
        if includeDates, let dates = request.dates {
            try check(dates.attribute, in: capabilities.dateAttributes, "a date range")
            let from = try dates.from.period(now: now, timeZone: source.index.timeZone)
            let to = try (dates.to ?? dates.from).period(now: now, timeZone: source.index.timeZone)
            parts.append(.inRange(dates.attribute, lower: .date(from.start), upper: .date(to.end)))
        }
        if let contentType = request.contentType { parts.append(.contentType(contentType)) }
        return parts.isEmpty ? .all : parts.count == 1 ? parts[0] : .and(parts)
    }

    private func check(_ attribute: SearchableItemAttribute, in allowed: [SearchableItemAttribute], _ what: String) throws(SearchToolError) {
        guard allowed.contains(attribute) else {
            throw .invalidQuery("\(what) cannot use \(attribute.rawValue); it can use \(allowed.map(\.rawValue).joined(separator: ", "))")
        }
    }

    private var sortOrder: [SearchSortOrder] {
        if case .attribute(let attribute, _) = request.sort, !(capabilities.numericAttributes + capabilities.dateAttributes).contains(attribute) {
            return [.relevance]
        }
        return [request.sort]
    }

    private func limit(for source: ResolvedSource) -> Int {
        let wanted = request.limit ?? Self.defaultLimit
        return source.maximumResultCount.map { min($0, wanted) } ?? wanted
    }

    /// The top results of every source (hydrated when the delegate holds attributes the index
    /// does not), merged best first, and how many items matched in all the sources.
    private func search(_ predicates: [QueryPredicate]) async throws -> (items: [SearchableItem], matched: Int, notes: [String]) {
        var scored: [(SearchableItem, Double?, Int)] = []
        var notes: [String] = []
        var matched = 0
        for (number, (source, predicate)) in zip(sources, predicates).enumerated() {
            let page = try await source.index.searchCountingFoundItems(SearchQuery(predicate, sort: sortOrder, limit: limit(for: source),
                                                                                   fetchAttributes: source.fetchAttributes))
            matched += page.foundItemCount
            let hits = page.hits
            let (items, sourceNotes) = await hydrate(hits.map(\.item), from: source, keeping: source.fetchAttributes)
            notes += sourceNotes
            let scores = Dictionary(hits.map { ($0.item.uniqueIdentifier, $0.score) }, uniquingKeysWith: { first, _ in first })
            scored += items.enumerated().map { ($0.element, scores[$0.element.uniqueIdentifier] ?? nil, number * 10_000 + $0.offset) }
        }
        if sources.count > 1, case .relevance = sortOrder.first {
            scored.sort { ($0.1 ?? -.infinity, -$0.2) > ($1.1 ?? -.infinity, -$1.2) }
        }
        let cap = request.limit ?? Self.defaultLimit
        return (scored.prefix(sources.count > 1 ? cap : scored.count).map(\.0), matched, notes)
    }

    /// Lays the delegate's items over the index's when some fetched attribute is missing.
    func hydrate(_ items: [SearchableItem], from source: ResolvedSource,
                 keeping attributes: [SearchableItemAttribute]?) async -> ([SearchableItem], [String]) {
        let wanted = attributes ?? []
        let missing = attributes == nil ? items : items.filter { item in wanted.contains { item.attributeSet[$0] == nil } }
        guard !missing.isEmpty, let delegate = source.delegate else { return (items, []) }
        guard let hydrated = await hydrator.items(for: missing.map(\.uniqueIdentifier), from: delegate) else {
            return (items, ["The app did not answer within \(hydrator.timeout); showing what the index holds."])
        }
        let missingIDs = Set(missing.map(\.uniqueIdentifier))
        var result: [SearchableItem] = []
        var dropped = 0
        for item in items {
            guard missingIDs.contains(item.uniqueIdentifier) else { result.append(item); continue }
            guard let fresh = hydrated[item.uniqueIdentifier] else { dropped += 1; continue }
            var merged = Hydrator.merge(item, with: fresh)
            if let attributes { merged.attributeSet = merged.attributeSet.restricted(to: Set(attributes)) }
            result.append(merged)
        }
        return (result, dropped == 0 ? [] : ["\(dropped) items were dropped: the app no longer has them."])
    }

    // MARK: Stages

    /// Runs one stage. `next` lets a groupBy followed by a statistic of an attribute compute the
    /// groups' values in the same SQL pass, instead of grouping twice.
    private func apply(_ stage: SearchRequest.Stage, to value: Value, matched: Int, items: [SearchableItem],
                       next: SearchRequest.Stage?) async throws -> Value {
        switch (stage, value) {
        case (.count, .matching):
            return .data(.count(SearchCount(value: matched, header: request.label)))
        case (.count, .grouped(_, _, let groups, _, _)):
            return .data(.count(SearchCount(value: groups.count, header: "groups")))
        case (.count, .data(let data)) where data.type == .items || data.type == .scoredItems:
            return .data(.count(SearchCount(value: data.items.count)))
        case (.count, .data(.table(let table))):
            return .data(.count(SearchCount(value: table.rows.count)))

        case let (.groupBy(attribute, unit), .matching(predicates)):
            try check(attribute, in: capabilities.groupableAttributes, "groupBy")
            let dateUnit = capabilities.dateAttributes.contains(attribute) ? unit ?? .month : nil
            var statistic: GroupStatistic?
            if case let .statistic(function, valueAttribute?) = next, capabilities.numericAttributes.contains(valueAttribute) {
                statistic = GroupStatistic(function, of: valueAttribute)
            }
            return .grouped(attribute, dateUnit, try await groups(attribute, dateUnit, statistic: statistic, predicates, withItems: true),
                            predicates, statistic)

        case let (.statistic(function, attribute?), .matching(predicates)):
            try check(attribute, in: capabilities.numericAttributes, "statistic")
            return .data(.statistic(try await statistic(function, attribute, predicates)))
        case let (.statistic(function, attribute?), .grouped(groupAttribute, unit, computed, predicates, computedStatistic)):
            try check(attribute, in: capabilities.numericAttributes, "statistic")
            let statistic = GroupStatistic(function, of: attribute)
            let groups = computedStatistic == statistic
                ? computed : try await groups(groupAttribute, unit, statistic: statistic, predicates, withItems: false)
            let name = "\(Self.name(function)) \(attribute.rawValue)"
            return .data(.table(SearchResultsTable(columns: [groupAttribute.rawValue, "count", name],
                                                   rows: groups.map { [$0.label, String($0.count), $0.value.map(formatter.number) ?? "-"] },
                                                   numbers: groups.map { [nil, Double($0.count), $0.value] }, header: request.label)))
        case let (.statistic(function, nil), .grouped(_, _, groups, _, _)):
            return .data(.statistic(Self.statistic(function, of: groups.map { Double($0.count) }, name: "\(Self.name(function)) of the group counts")))
        case let (.statistic(function, nil), .data(.scoredItems(scored))):
            return .data(.statistic(Self.statistic(function, of: scored.map(\.score), name: "\(Self.name(function)) score")))
        case let (.statistic(function, nil), .data(.table(table))):
            let column = table.columns.indices.last { index in table.numbers.contains { $0.indices.contains(index) && $0[index] != nil } }
            let values = column.map { index in table.numbers.compactMap { $0.indices.contains(index) ? $0[index] : nil } } ?? []
            return .data(.statistic(Self.statistic(function, of: values, name: "\(Self.name(function)) \(column.map { table.columns[$0] } ?? "")")))
        case (.statistic(_, nil), .matching):
            throw SearchToolError.invalidQuery("a statistic over the results needs an \"attribute\"")

        case let (.table(columns), .matching(predicates)):
            for column in columns { try check(column, in: capabilities.fetchAttributes, "a table") }
            var rows: [[String]] = []
            var numbers: [[Double?]] = []
            for (source, predicate) in zip(sources, predicates) {
                let shown = columns.filter(source.fetchAttributes.contains)
                let hits = try await source.index.search(SearchQuery(predicate, sort: sortOrder, limit: limit(for: source), fetchAttributes: shown))
                for hit in hits {
                    rows.append([hit.item.uniqueIdentifier] + columns.map { formatter.cell(hit.item.attributeSet[$0]) })
                    numbers.append([nil] + columns.map { hit.item.attributeSet[$0]?.numberValue })
                }
            }
            return .data(.table(SearchResultsTable(columns: ["id"] + columns.map(\.rawValue), rows: rows, numbers: numbers, header: request.label)))
        case let (.table, .grouped(attribute, _, groups, _, _)):
            return .data(.table(SearchResultsTable(columns: [attribute.rawValue, "count"], rows: groups.map { [$0.label, String($0.count)] },
                                                   numbers: groups.map { [nil, Double($0.count)] }, header: request.label)))

        case let (.score(attribute, ascending), .matching(predicates)):
            try check(attribute, in: capabilities.numericAttributes, "score")
            var scored: [ScoredSearchableItem] = []
            for (source, predicate) in zip(sources, predicates) {
                let fetch = (source.fetchAttributes + [attribute]).uniqued()
                let hits = try await source.index.search(SearchQuery(.and([predicate, .exists(attribute)]),
                                                                     sort: [.attribute(attribute, ascending: ascending)],
                                                                     limit: limit(for: source), fetchAttributes: fetch))
                scored += hits.compactMap { hit in
                    hit.item.attributeSet[attribute]?.numberValue.map {
                        var item = hit.item
                        item.attributeSet = item.attributeSet.restricted(to: Set(source.fetchAttributes))
                        return ScoredSearchableItem(item: item, score: $0)
                    }
                }
            }
            scored.sort { ascending ? $0.score < $1.score : $0.score > $1.score }
            return .data(.scoredItems(Array(scored.prefix(request.limit ?? Self.defaultLimit))))

        case let (.custom(stage, arguments), _):
            let input: SearchPipelineData
            switch value {
            case .matching: input = .items(items)
            case .grouped: input = Self.data(of: value)
            case .data(let data): input = data
            }
            guard stage.inputTypes.contains(input.type) else {
                throw SearchToolError.stageInputMismatch(stage: stage.name, accepted: stage.inputTypes, got: input.type)
            }
            do {
                try stage.argumentSchema.validate(arguments, rootName: "arguments")
                return .data(try await stage.execute(input: input, arguments: arguments))
            } catch {
                throw SearchToolError.customStageFailed(stage: stage.name, reason: String(describing: error))
            }

        default:
            let accepted: [SearchPipelineDataType] = switch stage {
            case .count: [.items, .scoredItems, .groupedItems, .table]
            case .groupBy: [.items]
            case .statistic(_, let attribute): attribute == nil ? [.groupedItems, .scoredItems, .table] : [.items, .groupedItems]
            case .table: [.items, .groupedItems]
            case .score: [.items]
            case .custom(let custom, _): custom.inputTypes
            }
            throw SearchToolError.stageInputMismatch(stage: stage.name, accepted: accepted, got: value.type)
        }
    }
}
