import Foundation
import LocalModel
import SearchIndex

/// A query the model wrote, read from its JSON into typed parts. The schema already bounds the
/// shape; this checks what a schema cannot (an attribute of the right kind for its stage).
///
/// Every key and word is read through the wire names `QueryLanguage` builds the schema from
/// (`QueryKey`, `BuiltInStage`, `FilterOperator`, `StatisticFunction`, `SortDirection`), so the
/// reader accepts what the schema offers and nothing the schema does not name.
struct SearchRequest: Sendable {
    /// One entry of `filters`.
    enum Filter: Sendable {
        case text(Text)
        case number(Number)
        case person(Person)

        /// `is` (the whole value) or `contains` (a part of it) on a string attribute.
        struct Text: Sendable {
            var attribute: SearchableItemAttribute
            var value: String
            /// `is`.
            var exact: Bool
        }

        /// A comparison of a number attribute with a value in its unit.
        struct Number: Sendable {
            var attribute: SearchableItemAttribute
            var comparison: ComparisonOperator
            var value: Double
        }

        /// `includes`: a person among an attribute's names or addresses ("me" is the user).
        struct Person: Sendable {
            var attribute: SearchableItemAttribute
            var name: String
        }
    }

    /// `dates`: from the start of `from`'s period to the end of `to`'s (`from`'s when absent).
    struct DateRange: Sendable {
        var attribute: SearchableItemAttribute
        var from: DateExpression
        var to: DateExpression?
    }

    /// One entry of `stages`.
    enum Stage: Sendable {
        case count
        case groupBy(GroupBy)
        case statistic(Statistic)
        case table(columns: [SearchableItemAttribute])
        case score(Score)
        case custom(Custom)

        /// Whether the stage reduces the items to numbers (a count, groups, a statistic).
        var reducesToNumbers: Bool {
            switch self {
            case .count, .groupBy, .statistic: true
            case .table, .score, .custom: false
            }
        }

        /// A count per value of an attribute, or per date component of a date attribute.
        struct GroupBy: Sendable {
            var attribute: SearchableItemAttribute
            var dateComponent: DateGroupingUnit?
        }

        /// A statistic of an attribute (per group after a groupBy), or without one of the
        /// numbers the previous stage produced.
        struct Statistic: Sendable {
            var function: StatisticFunction
            var attribute: SearchableItemAttribute?
        }

        /// The items ordered by a number attribute, which becomes their score.
        struct Score: Sendable {
            var attribute: SearchableItemAttribute
            var ascending: Bool
        }

        /// An app's stage with the arguments the model wrote for it.
        struct Custom: Sendable {
            var stage: any CustomStage
            var arguments: GeneratedContent
        }

        var name: String {
            switch self {
            case .count: BuiltInStage.count.rawValue
            case .groupBy: BuiltInStage.groupBy.rawValue
            case .statistic: BuiltInStage.statistic.rawValue
            case .table: BuiltInStage.table.rawValue
            case .score: BuiltInStage.score.rawValue
            case .custom(let custom): custom.stage.name
            }
        }
    }

    var terms: [String] = []
    var filters: [Filter] = []
    var dates: DateRange?
    var contentType: String?
    var sort: SearchSortOrder = .relevance
    var limit: Int?
    var stages: [Stage] = []
    var label: String?
    /// Conditions the question states that the model's query left out, added by the tool
    /// (`QuestionGrounding.narrowed`). They name attributes the index holds, which the guide
    /// may not offer the model, so they are not checked against the capabilities.
    var added: [QuestionGrounding.Condition] = []

    init(_ query: GeneratedContent, customStages: [any CustomStage]) throws(SearchToolError) {
        guard case .object = query else { throw .invalidQuery("\"\(QueryKey.query)\" must be an object") }
        terms = (query[.terms]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for filter in query[.filters]?.arrayValue ?? [] {
            filters.append(try Self.filter(filter))
        }
        if let dates = query[.dates] {
            guard let from = dates[.from]?.stringValue else { throw .invalidQuery("\"\(QueryKey.dates)\" needs \"\(QueryKey.from)\"") }
            self.dates = DateRange(attribute: try Self.attribute(dates[.attribute], "\"\(QueryKey.dates)\""), from: DateExpression(text: from),
                                   to: dates[.to]?.stringValue.map(DateExpression.init(text:)))
        }
        contentType = query[.contentType]?.stringValue
        if let sort = query[.sort], let name = sort[.attribute]?.stringValue {
            self.sort = .attribute(SearchableItemAttribute(rawValue: name), ascending: Self.isAscending(sort[.order]))
        }
        limit = query[.limit]?.intValue
        label = query[.label]?.stringValue
        for stage in query[.stages]?.arrayValue ?? [] {
            stages.append(try Self.stage(stage, customStages: customStages))
        }
    }

    private static func filter(_ filter: JSONValue) throws(SearchToolError) -> Filter {
        let attribute = try attribute(filter[.attribute], "a filter")
        let op = filter[.op]?.stringValue ?? ""
        let filterOperator = FilterOperator(rawValue: op)
        switch (filterOperator?.kind, filter[.value]) {
        case (.text?, .string(let value)?):
            return .text(Filter.Text(attribute: attribute, value: value, exact: filterOperator == .is))
        case (.person?, .string(let value)?):
            return .person(Filter.Person(attribute: attribute, name: value))
        case (_, let value?) where value.doubleValue != nil:
            guard let comparison = filterOperator?.comparison, let number = value.doubleValue else {
                throw .invalidQuery("the filter on \(attribute) has the operator \"\(op)\"; use \(alternatives(FilterOperator.of(.number)))")
            }
            return .number(Filter.Number(attribute: attribute, comparison: comparison, value: number))
        default:
            throw .invalidQuery("the filter on \(attribute) needs an \"\(QueryKey.op)\" and a \"\(QueryKey.value)\"")
        }
    }

    /// A built-in stage by its name, else the app's stage of that name.
    private static func stage(_ stage: JSONValue, customStages: [any CustomStage]) throws(SearchToolError) -> Stage {
        let name = stage[.stage]?.stringValue ?? ""
        switch BuiltInStage(rawValue: name) {
        case .count?:
            return .count
        case .groupBy?:
            let unit = stage[.dateComponent]?.stringValue.flatMap(DateGroupingUnit.init(rawValue:))
            return .groupBy(Stage.GroupBy(attribute: try attribute(stage[.attribute], name), dateComponent: unit))
        case .statistic?:
            guard let function = stage[.function]?.stringValue.flatMap(StatisticFunction.init(rawValue:)) else {
                throw .invalidQuery("a \(name) stage needs \"\(QueryKey.function)\": \(alternatives(StatisticFunction.allCases))")
            }
            return .statistic(Stage.Statistic(function: function, attribute: stage[.attribute]?.stringValue.map(SearchableItemAttribute.init(rawValue:))))
        case .table?:
            let columns = (stage[.columns]?.arrayValue ?? []).compactMap(\.stringValue).map(SearchableItemAttribute.init(rawValue:))
            guard !columns.isEmpty else { throw .invalidQuery("a \(name) stage needs \"\(QueryKey.columns)\"") }
            return .table(columns: columns)
        case .score?:
            return .score(Stage.Score(attribute: try attribute(stage[.attribute], name), ascending: isAscending(stage[.order])))
        case nil:
            guard let custom = customStages.first(where: { $0.name == name }) else {
                let known = BuiltInStage.allCases.map(\.rawValue) + customStages.map(\.name)
                throw .invalidQuery("there is no stage \"\(name)\"; the stages are \(known.joined(separator: ", "))")
            }
            return .custom(Stage.Custom(stage: custom, arguments: stage[.arguments] ?? .object([:])))
        }
    }

    private static func attribute(_ value: JSONValue?, _ what: String) throws(SearchToolError) -> SearchableItemAttribute {
        guard let name = value?.stringValue, !name.isEmpty else { throw .invalidQuery("\(what) needs an \"\(QueryKey.attribute)\"") }
        return SearchableItemAttribute(rawValue: name)
    }

    /// An `order`: descending unless it says ascending.
    private static func isAscending(_ order: JSONValue?) -> Bool {
        order?.stringValue.flatMap(SortDirection.init(rawValue:)) == .ascending
    }

    /// `a, b or c`, for the error that lists what may be written instead.
    private static func alternatives<Name: RawRepresentable>(_ names: [Name]) -> String where Name.RawValue == String {
        names.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + (names.last?.rawValue ?? "")
    }
}
