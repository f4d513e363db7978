import Foundation
import LocalModel
import SearchIndex

/// The stages, one function each. Each takes the previous stage's value and returns its own, or
/// nil when it does not take that value; `apply` then throws the mismatch, naming what the stage
/// accepts (`SearchRequest.Stage.acceptedInputs`).
extension SearchPipeline {
    /// Runs one stage. `next` lets a groupBy followed by a statistic of an attribute compute the
    /// groups' values in the same SQL pass, instead of grouping twice.
    func apply(_ stage: SearchRequest.Stage, to value: PipelineValue, matched: Int, items: [SearchableItem],
               next: SearchRequest.Stage?) async throws -> PipelineValue {
        let result: PipelineValue?
        switch stage {
        case .count: result = countStage(value, matched: matched)
        case .groupBy(let groupBy): result = try await groupByStage(groupBy, value, next: next)
        case .statistic(let statistic): result = try await statisticStage(statistic, value)
        case .table(let columns): result = try await tableStage(columns, value)
        case .score(let score): result = try await scoreStage(score, value)
        case .custom(let custom): result = try await customStage(custom, value, items: items)
        }
        guard let result else {
            throw SearchToolError.stageInputMismatch(stage: stage.name, accepted: stage.acceptedInputs, got: value.type)
        }
        return result
    }

    /// How many items matched, groups there are, or items or rows the previous stage produced.
    private func countStage(_ value: PipelineValue, matched: Int) -> PipelineValue? {
        switch value {
        case .matching:
            .data(.count(SearchCount(value: matched, header: request.label)))
        case .grouped(let grouped):
            .data(.count(SearchCount(value: grouped.groups.count, header: "groups")))
        case .data(let data) where data.type == .items || data.type == .scoredItems:
            .data(.count(SearchCount(value: data.items.count)))
        case .data(.table(let table)):
            .data(.count(SearchCount(value: table.rows.count)))
        case .data:
            nil
        }
    }

    /// The matches grouped in SQL, with the values of the next stage's statistic when it has an
    /// attribute.
    private func groupByStage(_ groupBy: SearchRequest.Stage.GroupBy, _ value: PipelineValue,
                              next: SearchRequest.Stage?) async throws -> PipelineValue? {
        guard case .matching(let predicates) = value else { return nil }
        let attribute = groupBy.attribute
        try check(attribute, in: capabilities.groupableAttributes, "\(BuiltInStage.groupBy)")
        let unit = capabilities.dateAttributes.contains(attribute) ? groupBy.dateComponent ?? .month : nil
        var statistic: GroupStatistic?
        if case .statistic(let following) = next, let valueAttribute = following.attribute,
           capabilities.numericAttributes.contains(valueAttribute) {
            statistic = GroupStatistic(following.function.statistic, of: valueAttribute)
        }
        let groups = try await groups(attribute, unit, statistic: statistic, predicates, withItems: true)
        return .grouped(PipelineValue.Groups(attribute: attribute, unit: unit, groups: groups, predicates: predicates, statistic: statistic))
    }

    /// A statistic of an attribute over the matches (in SQL) or per group (a table), or without
    /// an attribute of the numbers the previous stage produced: group counts, scores, a column.
    private func statisticStage(_ stage: SearchRequest.Stage.Statistic, _ value: PipelineValue) async throws -> PipelineValue? {
        let function = stage.function
        switch (stage.attribute, value) {
        case let (attribute?, .matching(predicates)):
            try check(attribute, in: capabilities.numericAttributes, "\(BuiltInStage.statistic)")
            return .data(.statistic(try await statistic(function, attribute, predicates)))
        case let (attribute?, .grouped(grouped)):
            try check(attribute, in: capabilities.numericAttributes, "\(BuiltInStage.statistic)")
            let statistic = GroupStatistic(function.statistic, of: attribute)
            let groups = grouped.statistic == statistic
                ? grouped.groups : try await groups(grouped.attribute, grouped.unit, statistic: statistic, grouped.predicates, withItems: false)
            let name = "\(function) \(attribute.rawValue)"
            return .data(.table(SearchResultsTable(columns: [grouped.attribute.rawValue, "count", name],
                                                   rows: groups.map { [$0.label, String($0.count), $0.value.map(formatter.number) ?? "-"] },
                                                   numbers: groups.map { [nil, Double($0.count), $0.value] }, header: request.label)))
        case let (nil, .grouped(grouped)):
            return .data(.statistic(Self.statistic(function, of: grouped.groups.map { Double($0.count) }, name: "\(function) of the group counts")))
        case let (nil, .data(.scoredItems(scored))):
            return .data(.statistic(Self.statistic(function, of: scored.map(\.score), name: "\(function) score")))
        case let (nil, .data(.table(table))):
            let column = table.columns.indices.last { index in table.numbers.contains { $0.indices.contains(index) && $0[index] != nil } }
            let values = column.map { index in table.numbers.compactMap { $0.indices.contains(index) ? $0[index] : nil } } ?? []
            return .data(.statistic(Self.statistic(function, of: values, name: "\(function) \(column.map { table.columns[$0] } ?? "")")))
        case (nil, .matching):
            throw SearchToolError.invalidQuery("a \(BuiltInStage.statistic) over the results needs an \"\(QueryKey.attribute)\"")
        case (_, .data):
            return nil
        }
    }

    /// The matches' identifiers and the chosen columns, or the groups and their counts.
    private func tableStage(_ columns: [SearchableItemAttribute], _ value: PipelineValue) async throws -> PipelineValue? {
        switch value {
        case .matching(let predicates):
            for column in columns { try check(column, in: capabilities.fetchAttributes, "a table") }
            var rows: [[String]] = []
            var numbers: [[Double?]] = []
            for (source, predicate) in zip(sources, predicates) {
                let shown = columns.filter(source.fetchAttributes.contains)
                let hits = try await source.index.search(SearchQuery(predicate, sort: sortOrder, limit: limit(for: source), fetchAttributes: shown,
                                                                     wordsSearch: wordsSearch))
                for hit in hits {
                    rows.append([hit.item.uniqueIdentifier] + columns.map { formatter.cell(hit.item.attributeSet[$0]) })
                    numbers.append([nil] + columns.map { hit.item.attributeSet[$0]?.numberValue })
                }
            }
            return .data(.table(SearchResultsTable(columns: ["id"] + columns.map(\.rawValue), rows: rows, numbers: numbers, header: request.label)))
        case .grouped(let grouped):
            return .data(.table(SearchResultsTable(columns: [grouped.attribute.rawValue, "count"], rows: grouped.groups.map { [$0.label, String($0.count)] },
                                                   numbers: grouped.groups.map { [nil, Double($0.count)] }, header: request.label)))
        case .data:
            return nil
        }
    }

    /// The matches that have the attribute, ordered by it (in SQL), its value as their score.
    private func scoreStage(_ score: SearchRequest.Stage.Score, _ value: PipelineValue) async throws -> PipelineValue? {
        guard case .matching(let predicates) = value else { return nil }
        let attribute = score.attribute
        try check(attribute, in: capabilities.numericAttributes, "\(BuiltInStage.score)")
        var scored: [ScoredSearchableItem] = []
        for (source, predicate) in zip(sources, predicates) {
            let fetch = (source.fetchAttributes + [attribute]).uniqued()
            let hits = try await source.index.search(SearchQuery(.and([predicate, .exists(attribute)]),
                                                                 sort: [.attribute(attribute, ascending: score.ascending)],
                                                                 limit: limit(for: source), fetchAttributes: fetch))
            scored += hits.compactMap { hit in
                hit.item.attributeSet[attribute]?.numberValue.map {
                    var item = hit.item
                    item.attributeSet = item.attributeSet.restricted(to: Set(source.fetchAttributes))
                    return ScoredSearchableItem(item: item, score: $0)
                }
            }
        }
        scored.sort { score.ascending ? $0.score < $1.score : $0.score > $1.score }
        return .data(.scoredItems(Array(scored.prefix(request.limit ?? Self.defaultLimit))))
    }

    /// An app's stage, on the search's items or the previous stage's data, its arguments checked
    /// against the stage's open schema first.
    private func customStage(_ custom: SearchRequest.Stage.Custom, _ value: PipelineValue,
                             items: [SearchableItem]) async throws -> PipelineValue {
        let stage = custom.stage
        let input: SearchPipelineData = if case .matching = value { .items(items) } else { value.data }
        guard stage.inputTypes.contains(input.type) else {
            throw SearchToolError.stageInputMismatch(stage: stage.name, accepted: stage.inputTypes, got: input.type)
        }
        do {
            try stage.argumentSchema.validate(custom.arguments, rootName: QueryKey.arguments.rawValue)
            return .data(try await stage.execute(input: input, arguments: custom.arguments))
        } catch {
            throw SearchToolError.customStageFailed(stage: stage.name, reason: String(describing: error))
        }
    }
}

extension SearchRequest.Stage {
    /// What each stage takes from the stage before it, as its mismatch error states it: a
    /// statistic with an attribute computes it over the matches or per group, one without an
    /// attribute over the numbers the previous stage produced.
    var acceptedInputs: [SearchPipelineDataType] {
        switch self {
        case .count: [.items, .scoredItems, .groupedItems, .table]
        case .groupBy: [.items]
        case .statistic(let statistic): statistic.attribute == nil ? [.groupedItems, .scoredItems, .table] : [.items, .groupedItems]
        case .table: [.items, .groupedItems]
        case .score: [.items]
        case .custom(let custom): custom.stage.inputTypes
        }
    }
}
