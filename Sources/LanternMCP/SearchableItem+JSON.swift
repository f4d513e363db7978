import Foundation
import LocalModel
import SearchIndex

extension SearchableItem {
    /// The item's attributes as a JSON object by attribute name, its text left out (a search
    /// result carries the fetched attributes only; a fetch gives the text on its own): strings,
    /// lists of strings, numbers, and dates in ISO 8601.
    var attributesJSON: JSONValue {
        let names = attributeSet.values.keys.filter { $0 != .textContent }.sorted { $0.rawValue < $1.rawValue }
        return .object(JSONObject(names.compactMap { name in attributeSet[name].map { (name.rawValue, Self.json($0)) } }))
    }

    /// The schema of `attributesJSON`, for the tools' `outputSchema`.
    static let attributesSchema: JSONValue = [
        "type": "object",
        "description": "The item's attributes by name: text, lists of text, numbers, dates in ISO 8601",
        "additionalProperties": ["type": ["string", "number", "array"], "items": ["type": "string"]],
    ]

    private static func json(_ value: AttributeValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .strings(let texts): .array(texts.map(JSONValue.string))
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? .int(Int(number)) : .double(number)
        case .date(let date): .string(date.formatted(.iso8601))
        }
    }
}
