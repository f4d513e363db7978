import Foundation
import LocalModel
import SearchIndex

/// A query the model wrote, read from its JSON into typed parts. The schema already bounds the
/// shape; this checks what a schema cannot (an attribute of the right kind for its stage).
struct SearchRequest: Sendable {
    enum Filter: Sendable {
        case text(SearchableItemAttribute, exact: Bool, String)
        case number(SearchableItemAttribute, ComparisonOperator, Double)
        case person(SearchableItemAttribute, String)
    }

    enum Stage: Sendable {
        case count
        case groupBy(SearchableItemAttribute, DateGroupingUnit?)
        case statistic(Statistic, SearchableItemAttribute?)
        case table([SearchableItemAttribute])
        case score(SearchableItemAttribute, ascending: Bool)
        case custom(any CustomStage, GeneratedContent)

        var name: String {
            switch self {
            case .count: "count"
            case .groupBy: "groupBy"
            case .statistic: "statistic"
            case .table: "table"
            case .score: "score"
            case .custom(let stage, _): stage.name
            }
        }
    }

    var terms: [String] = []
    var filters: [Filter] = []
    var dates: (attribute: SearchableItemAttribute, from: DateExpression, to: DateExpression?)?
    var contentType: String?
    var sort: SearchSortOrder = .relevance
    var limit: Int?
    var stages: [Stage] = []
    var label: String?

    init(_ query: GeneratedContent, customStages: [any CustomStage]) throws(SearchToolError) {
        guard case .object = query else { throw .invalidQuery("\"query\" must be an object") }
        func attribute(_ value: JSONValue?, _ what: String) throws(SearchToolError) -> SearchableItemAttribute {
            guard let name = value?.stringValue, !name.isEmpty else { throw .invalidQuery("\(what) needs an \"attribute\"") }
            return SearchableItemAttribute(rawValue: name)
        }
        terms = (query["terms"]?.arrayValue ?? []).compactMap(\.stringValue).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for filter in query["filters"]?.arrayValue ?? [] {
            let name = try attribute(filter["attribute"], "a filter")
            let op = filter["op"]?.stringValue ?? ""
            switch (op, filter["value"]) {
            case ("is", .string(let value)?), ("contains", .string(let value)?):
                filters.append(.text(name, exact: op == "is", value))
            case ("includes", .string(let value)?):
                filters.append(.person(name, value))
            case (_, let value?) where value.doubleValue != nil:
                guard let comparison = ComparisonOperator(rawValue: op == "=" ? "==" : op), let number = value.doubleValue else {
                    throw .invalidQuery("the filter on \(name) has the operator \"\(op)\"; use =, <, <=, > or >=")
                }
                filters.append(.number(name, comparison, number))
            default:
                throw .invalidQuery("the filter on \(name) needs an \"op\" and a \"value\"")
            }
        }
        if let dates = query["dates"] {
            guard let from = dates["from"]?.stringValue else { throw .invalidQuery("\"dates\" needs \"from\"") }
            self.dates = (try attribute(dates["attribute"], "\"dates\""), DateExpression(text: from),
                          dates["to"]?.stringValue.map(DateExpression.init(text:)))
        }
        contentType = query["contentType"]?.stringValue
        if let sort = query["sort"], let name = sort["attribute"]?.stringValue, name != "relevance" {
            self.sort = .attribute(SearchableItemAttribute(rawValue: name), ascending: sort["order"]?.stringValue == "ascending")
        }
        limit = query["limit"]?.intValue
        label = query["label"]?.stringValue
        for stage in query["stages"]?.arrayValue ?? [] {
            let name = stage["stage"]?.stringValue ?? ""
            switch name {
            case "count":
                stages.append(.count)
            case "groupBy":
                let unit = stage["dateComponent"]?.stringValue.flatMap(DateGroupingUnit.init(rawValue:))
                stages.append(.groupBy(try attribute(stage["attribute"], "groupBy"), unit))
            case "statistic":
                let function: Statistic
                switch stage["function"]?.stringValue {
                case "sum": function = .sum
                case "avg": function = .average
                case "min": function = .minimum
                case "max": function = .maximum
                default: throw .invalidQuery("a statistic stage needs \"function\": sum, avg, min or max")
                }
                stages.append(.statistic(function, stage["attribute"]?.stringValue.map(SearchableItemAttribute.init(rawValue:))))
            case "table":
                let columns = (stage["columns"]?.arrayValue ?? []).compactMap(\.stringValue).map(SearchableItemAttribute.init(rawValue:))
                guard !columns.isEmpty else { throw .invalidQuery("a table stage needs \"columns\"") }
                stages.append(.table(columns))
            case "score":
                stages.append(.score(try attribute(stage["attribute"], "score"), ascending: stage["order"]?.stringValue == "ascending"))
            default:
                guard let custom = customStages.first(where: { $0.name == name }) else {
                    let known = ["count", "groupBy", "statistic", "table", "score"] + customStages.map(\.name)
                    throw .invalidQuery("there is no stage \"\(name)\"; the stages are \(known.joined(separator: ", "))")
                }
                stages.append(.custom(custom, stage["arguments"] ?? .object([:])))
            }
        }
    }
}
