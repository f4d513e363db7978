import SearchIndex

/// What flows between a pipeline's stages: still a predicate per source (nothing loaded, so the
/// next stage can run in SQL), groups computed in SQL, or data a stage produced.
enum PipelineValue: Sendable {
    case matching([QueryPredicate])
    case grouped(Groups)
    case data(SearchPipelineData)

    /// A groupBy's groups, with what a following statistic needs to compute its values per group.
    struct Groups: Sendable {
        var attribute: SearchableItemAttribute
        /// The date component, when the attribute is a date.
        var unit: DateGroupingUnit?
        var groups: [SearchResultGroup]
        /// Each source's predicate, to group again with another statistic.
        var predicates: [QueryPredicate]
        /// The statistic the groups' values hold, when the next stage asked for one.
        var statistic: GroupStatistic?
    }

    var type: SearchPipelineDataType {
        switch self {
        case .matching: .items
        case .grouped: .groupedItems
        case .data(let data): data.type
        }
    }

    /// What a reply shows for this value.
    var data: SearchPipelineData {
        switch self {
        case .matching: .items([])
        // values computed ahead for the next stage are that stage's to show
        case .grouped(let grouped): .groupedItems(grouped.groups.map { SearchResultGroup(label: $0.label, count: $0.count, items: $0.items) })
        case .data(let data): data
        }
    }
}
