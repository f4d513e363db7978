import LocalModel

/// A terse, TypeScript-like rendering of a `GenerationSchema` for the prompt, for the compact
/// format: `{query: {terms?: [string(max 32)](1 to 3 items), limit?: integer(1 to 20)}}`.
///
/// JSON Schema spends most of its tokens on keywords (`"type"`, `"properties"`, `"required"`,
/// `"additionalProperties"`) repeated on every object; a 4K window cannot afford them. The
/// sketch is rendered from the very schema the grammar is compiled from, and keeps every
/// constraint the grammar enforces (optional keys, enumerations, bounds, patterns), so the
/// prompt still describes exactly what the model may write.
enum SchemaSketch {
    /// The schema, then its definitions: `… where date = string(…)`.
    static func render(_ schema: GenerationSchema) -> String {
        var text = type(schema)
        if !schema.definitions.isEmpty {
            text += " where " + schema.definitions.map { "\($0.name) = " + render($0.schema) }.joined(separator: "; ")
        }
        return text
    }

    private static func type(_ schema: GenerationSchema) -> String {
        var text: String
        switch schema.kind {
        case .string(let minLength, let maxLength, let pattern):
            var bounds = length(minLength, maxLength, unit: "chars")
            if let pattern { bounds.append("matching /\(pattern)/") }
            text = "string" + parenthesized(bounds)
        case .integer(let minimum, let maximum):
            text = "integer" + parenthesized(range(minimum.map(Double.init), maximum.map(Double.init), nil, nil))
        case .number(let minimum, let maximum, let exclusiveMinimum, let exclusiveMaximum):
            text = "number" + parenthesized(range(minimum, maximum, exclusiveMinimum, exclusiveMaximum))
        case .boolean:
            text = "boolean"
        case .null:
            text = "null"
        case .array(let items, let minItems, let maxItems):
            text = "[" + render(items) + "]" + parenthesized(length(minItems, maxItems, unit: "items"))
        case .object(let properties):
            text = "{" + properties.map { $0.name + ($0.isOptional ? "?: " : ": ") + render($0.schema) }.joined(separator: ", ") + "}"
        case .anyOf(let schemas), .oneOf(let schemas):
            text = schemas.map(render).joined(separator: " | ")
        case .enumeration(let values):
            text = values.map(literal).joined(separator: "|")
        case .constant(let value):
            text = literal(value)
        case .reference(let name):
            text = name
        case .formatted(let format):
            text = "string(\(format.rawValue))"
        case .dictionary(let values, let maxProperties):
            text = "{string: " + render(values) + "}" + parenthesized(length(nil, maxProperties, unit: "keys"))
        case .tuple(let prefix, let rest, let maxItems):
            text = "[" + (prefix.map(render) + [rest.map { render($0) + "…" }].compactMap { $0 }).joined(separator: ", ") + "]"
                + parenthesized(length(nil, maxItems, unit: "items"))
        case .anyValue:
            text = "any"
        }
        if let description = schema.description { text += " /* \(description) */" }
        return text
    }

    /// A value as written in the sketch: bare when it reads as a word that no other JSON value
    /// could be mistaken for, quoted JSON otherwise.
    private static func literal(_ value: JSONValue) -> String {
        guard case .string(let string) = value, !string.isEmpty, !["true", "false", "null"].contains(string),
              string.first.map({ !$0.isNumber && $0 != "-" }) ?? false,
              string.allSatisfy({ $0.isLetter || $0.isNumber || "_.-<>=/".contains($0) }) else { return value.jsonString }
        return string
    }

    private static func length(_ minimum: Int?, _ maximum: Int?, unit: String) -> [String] {
        switch (minimum, maximum) {
        case let (low?, high?) where low == high: ["exactly \(low) \(unit)"]
        case let (low?, high?): ["\(low) to \(high) \(unit)"]
        case let (low?, nil): ["min \(low) \(unit)"]
        case let (nil, high?): ["max \(high) \(unit)"]
        case (nil, nil): []
        }
    }

    private static func range(_ minimum: Double?, _ maximum: Double?, _ exclusiveMinimum: Double?, _ exclusiveMaximum: Double?) -> [String] {
        if let minimum, let maximum, exclusiveMinimum == nil, exclusiveMaximum == nil { return ["\(number(minimum)) to \(number(maximum))"] }
        var bounds: [String] = []
        if let minimum { bounds.append(">= " + number(minimum)) }
        if let exclusiveMinimum { bounds.append("> " + number(exclusiveMinimum)) }
        if let maximum { bounds.append("<= " + number(maximum)) }
        if let exclusiveMaximum { bounds.append("< " + number(exclusiveMaximum)) }
        return bounds
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    private static func parenthesized(_ parts: [String]) -> String {
        parts.isEmpty ? "" : "(" + parts.joined(separator: ", ") + ")"
    }
}
