import LocalModel

/// A custom stage's argument schema narrowed for one request: every free string (no declared
/// values, no pattern) becomes a choice among the question's words and phrases, so a small model
/// can only copy what the user asked about. Strings whose values the stage declared
/// (`.string(anyOf:)`, constants) and patterned strings stay as declared; numbers, booleans and
/// bounds stay too.
///
/// Measured with the default 135M model: given a free `words` string array, it wrote text that
/// was in neither the question nor the index; limited to the question's words it copied them.
enum StageArgumentSchema {
    /// The narrowed schema, or nil when a required string cannot be filled from `phrases`
    /// (none fits its length bounds): the stage then sits out this request's grammar rather
    /// than being offered with an argument the model would have to invent.
    static func narrowed(_ schema: GenerationSchema, to phrases: [String]) -> GenerationSchema? {
        var result = schema
        switch schema.kind {
        case let .string(minLength, maxLength, pattern):
            guard pattern == nil else { return schema }
            let fitting = phrases.filter { ((minLength ?? 0)...(maxLength ?? .max)).contains($0.unicodeScalars.count) }
            guard !fitting.isEmpty else { return nil }
            result.kind = .enumeration(fitting.map(JSONValue.string))
        case let .array(items, minItems, maxItems):
            guard let items = narrowed(items, to: phrases) else { return nil }
            result.kind = .array(items: items, minItems: minItems, maxItems: maxItems)
        case .object(let properties):
            var kept: [GenerationSchema.Property] = []
            for property in properties {
                if let schema = narrowed(property.schema, to: phrases) {
                    kept.append(GenerationSchema.Property(name: property.name, schema: schema, isOptional: property.isOptional))
                } else if !property.isOptional {
                    return nil
                }
            }
            result.kind = .object(kept)
        case .anyOf(let alternatives):
            let kept = alternatives.compactMap { narrowed($0, to: phrases) }
            guard !kept.isEmpty else { return nil }
            result.kind = .anyOf(kept)
        case .oneOf(let alternatives):
            let kept = alternatives.compactMap { narrowed($0, to: phrases) }
            guard !kept.isEmpty else { return nil }
            result.kind = .oneOf(kept)
        case .integer, .number, .boolean, .null, .enumeration, .constant, .reference, .formatted, .dictionary, .tuple, .anyValue:
            break
        }
        var definitions: [GenerationSchema.Definition] = []
        for definition in schema.definitions {
            guard let narrowed = narrowed(definition.schema, to: phrases) else { return nil }
            definitions.append(GenerationSchema.Definition(name: definition.name, schema: narrowed))
        }
        result.definitions = definitions
        return result
    }
}
