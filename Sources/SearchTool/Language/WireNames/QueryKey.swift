import LocalModel

/// Every key of the search tool's arguments, spelled as the model writes it. `QueryLanguage`
/// builds the schema from these and `SearchRequest` reads the call with them, so the reader
/// cannot look for a key the schema does not offer; the description text names them through
/// the same cases, so a renamed key cannot leave a stale word in the prompt.
package enum QueryKey: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The one top-level argument, `{"query": {...}}`.
    case query
    // The search.
    case terms, filters, dates, contentType, sort, stages, limit, label
    // Inside a filter, the date range, the sort or a stage.
    case attribute, op, value, from, to, order, stage, dateComponent, function, columns, arguments

    package var description: String { rawValue }
}

extension GenerationSchema.Property {
    /// A property named by its wire key.
    static func property(_ key: QueryKey, _ schema: GenerationSchema, optional: Bool = false) -> Self {
        .property(key.rawValue, schema, optional: optional)
    }
}

extension JSONValue {
    /// The value under a wire key, nil when absent or when this is not an object.
    subscript(key: QueryKey) -> JSONValue? { self[key.rawValue] }
}
