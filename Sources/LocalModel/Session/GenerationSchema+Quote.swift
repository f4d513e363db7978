import Foundation

extension GenerationSchema {
    /// A string that must be a verbatim sentence of what this response's tool outputs showed
    /// (a Lantern addition; Apple's `@Guide` has no such constraint). In
    /// `respond(to:generating:)` after a search, the session compiles the field as a choice
    /// among the shown sources' sentences, so a structured answer's quotes are retrieved text
    /// by construction, as quote mode's are. Before any tool output, or when none showed text,
    /// the field is a free string.
    ///
    /// ```swift
    /// static let generationSchema: GenerationSchema = .object([
    ///     .property("answer", .string(description: "A short answer")),
    ///     .property("evidence", .quote(description: "The sentence of the notes it rests on")),
    /// ])
    /// ```
    public static func quote(description: String? = nil) -> GenerationSchema {
        var schema = GenerationSchema.string(description: description)
        schema.isQuote = true
        return schema
    }

    /// This schema with every quote field (and every quote in a nested schema or definition)
    /// limited to `sentences`; unchanged when there are none.
    func quotingFields(from sentences: [String]) -> GenerationSchema {
        guard !sentences.isEmpty else { return self }
        var copy = self
        copy.definitions = definitions.map { Definition(name: $0.name, schema: $0.schema.quotingFields(from: sentences)) }
        func quoting(_ schema: GenerationSchema) -> GenerationSchema { schema.quotingFields(from: sentences) }
        switch kind {
        case .string where isQuote:
            copy.kind = .enumeration(sentences.map(JSONValue.string))
        case .array(let items, let minItems, let maxItems):
            copy.kind = .array(items: quoting(items), minItems: minItems, maxItems: maxItems)
        case .object(let properties):
            copy.kind = .object(properties.map { Property(name: $0.name, schema: quoting($0.schema), isOptional: $0.isOptional) })
        case .anyOf(let schemas):
            copy.kind = .anyOf(schemas.map(quoting))
        case .oneOf(let schemas):
            copy.kind = .oneOf(schemas.map(quoting))
        case .dictionary(let values, let maxProperties):
            copy.kind = .dictionary(values: quoting(values), maxProperties: maxProperties)
        case .tuple(let prefix, let rest, let maxItems):
            copy.kind = .tuple(prefix: prefix.map(quoting), rest: rest.map(quoting), maxItems: maxItems)
        case .string, .integer, .number, .boolean, .null, .enumeration, .constant, .reference, .formatted, .anyValue:
            break
        }
        return copy
    }
}
