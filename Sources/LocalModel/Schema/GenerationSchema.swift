/// The shape of a value a model may generate: the one description that both the prompt text and
/// the grammar come from.
///
/// Apple's `GenerationSchema` is normally built by the `@Generable` macro; macros need a package
/// dependency Lantern does not take, so schemas are built with plain static functions instead,
/// about as short as the macro's `@Guide`s:
///
/// ```swift
/// let arguments: GenerationSchema = .object([
///     .property("query", .string(description: "Words to search for", maxLength: 80)),
///     .property("limit", .integer(minimum: 1, maximum: 50), optional: true),
/// ], description: "Search the user's notes")
/// ```
///
/// A schema renders to JSON Schema (`jsonSchema`), can be read from one
/// (`init(jsonSchema:)`), validates values (`validate(_:)`) and compiles to a llama.cpp grammar
/// (`GrammarCompiler`). Objects are closed: only the listed properties, in the listed order.
public struct GenerationSchema: Sendable, Hashable {
    /// What kind of value the schema admits, with its constraints.
    public indirect enum Kind: Sendable, Hashable {
        /// A string, optionally bounded in length (in Unicode scalars) and matching `pattern`
        /// as a whole (a regular-expression subset the grammar can express; see `GrammarCompiler`).
        case string(minLength: Int?, maxLength: Int?, pattern: String?)
        /// A whole number within the bounds (inclusive).
        case integer(minimum: Int?, maximum: Int?)
        /// Any number within the bounds.
        case number(minimum: Double?, maximum: Double?, exclusiveMinimum: Double?, exclusiveMaximum: Double?)
        case boolean
        case null
        /// An array whose elements all match `items`.
        case array(items: GenerationSchema, minItems: Int?, maxItems: Int?)
        /// An object with exactly these properties (optional ones may be left out), in this order.
        case object([Property])
        /// A value matching at least one of the schemas.
        case anyOf([GenerationSchema])
        /// A value matching exactly one of the schemas (a discriminated union).
        case oneOf([GenerationSchema])
        /// One of these values.
        case enumeration([JSONValue])
        /// Exactly this value.
        case constant(JSONValue)
        /// The named definition (`$defs`) of this schema or an enclosing one; may recurse.
        case reference(String)
        /// A string in a standard format (JSON Schema `format`), written to its syntax.
        case formatted(StringFormat)
        /// An object whose keys are free and whose values all match `values` (JSON Schema
        /// `additionalProperties` with a schema: a map), with at most `maxProperties` keys.
        case dictionary(values: GenerationSchema, maxProperties: Int?)
        /// An array whose first items match `prefix`, one each and all present, followed (when
        /// `rest` is given) by items matching `rest`, up to `maxItems` in all (JSON Schema
        /// `prefixItems`: a tuple).
        case tuple(prefix: [GenerationSchema], rest: GenerationSchema?, maxItems: Int?)
        /// Any JSON value (JSON Schema `{}` or `true`); generated bounded in depth and size (see
        /// `GrammarCompiler.Options`).
        case anyValue
    }

    /// A property of an object schema.
    public struct Property: Sendable, Hashable {
        public var name: String
        public var schema: GenerationSchema
        /// Whether the property may be left out (JSON Schema: absent from `required`).
        public var isOptional: Bool

        public init(name: String, schema: GenerationSchema, isOptional: Bool = false) {
            self.name = name
            self.schema = schema
            self.isOptional = isOptional
        }

        /// A property; the description goes on its schema, as JSON Schema puts it.
        public static func property(_ name: String, _ schema: GenerationSchema, optional: Bool = false) -> Property {
            Property(name: name, schema: schema, isOptional: optional)
        }

        /// A property whose value is a `Generable` type (a nested struct or an enum).
        public static func property<T: Generable>(_ name: String, _ type: T.Type, description: String? = nil,
                                                  optional: Bool = false) -> Property {
            Property(name: name, schema: .generable(type, description: description), isOptional: optional)
        }
    }

    /// A named schema that `.reference(name)` points to (JSON Schema `$defs`).
    public struct Definition: Sendable, Hashable {
        public var name: String
        public var schema: GenerationSchema
        public init(name: String, schema: GenerationSchema) {
            self.name = name
            self.schema = schema
        }
    }

    public var kind: Kind
    /// Text for the model (it goes into the prompt with the schema): what the value means.
    public var description: String?
    /// Named schemas defined here, in order, for `.reference` to use.
    public var definitions: [Definition]
    /// Whether a string must be a sentence a tool showed the model in this response (see
    /// `GenerationSchema.quote`); the session limits it to those sentences when it compiles
    /// the answer. Not part of JSON Schema: a schema read from JSON has none.
    public var isQuote = false

    public init(kind: Kind, description: String? = nil, definitions: [Definition] = []) {
        self.kind = kind
        self.description = description
        self.definitions = definitions
    }
}

// MARK: - Builders

extension GenerationSchema {
    /// A string; `pattern` must match the whole string (`^`/`$` optional).
    public static func string(description: String? = nil, minLength: Int? = nil, maxLength: Int? = nil,
                              pattern: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .string(minLength: minLength, maxLength: maxLength, pattern: pattern), description: description)
    }

    /// A string that is one of `choices` (Apple's `@Guide(.anyOf(...))`).
    public static func string(description: String? = nil, anyOf choices: [String]) -> GenerationSchema {
        GenerationSchema(kind: .enumeration(choices.map(JSONValue.string)), description: description)
    }

    /// A whole number; bounds are inclusive.
    public static func integer(description: String? = nil, minimum: Int? = nil, maximum: Int? = nil) -> GenerationSchema {
        GenerationSchema(kind: .integer(minimum: minimum, maximum: maximum), description: description)
    }

    /// A whole number in `range` (Apple's `@Guide(.range(...))`).
    public static func integer(description: String? = nil, in range: ClosedRange<Int>) -> GenerationSchema {
        integer(description: description, minimum: range.lowerBound, maximum: range.upperBound)
    }

    /// A number; `minimum`/`maximum` are inclusive, the exclusive ones are not.
    public static func number(description: String? = nil, minimum: Double? = nil, maximum: Double? = nil,
                              exclusiveMinimum: Double? = nil, exclusiveMaximum: Double? = nil) -> GenerationSchema {
        GenerationSchema(kind: .number(minimum: minimum, maximum: maximum, exclusiveMinimum: exclusiveMinimum,
                                       exclusiveMaximum: exclusiveMaximum), description: description)
    }

    /// A number in `range`, bounds included.
    public static func number(description: String? = nil, in range: ClosedRange<Double>) -> GenerationSchema {
        number(description: description, minimum: range.lowerBound, maximum: range.upperBound)
    }

    public static func boolean(description: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .boolean, description: description)
    }

    /// Only `null`; mostly useful inside `anyOf`.
    public static var null: GenerationSchema { GenerationSchema(kind: .null) }

    /// An array of `items`, with an optional count (Apple's `@Guide(.count(...))`).
    public static func array(of items: GenerationSchema, description: String? = nil, minItems: Int? = nil,
                             maxItems: Int? = nil) -> GenerationSchema {
        GenerationSchema(kind: .array(items: items, minItems: minItems, maxItems: maxItems), description: description)
    }

    /// An array of exactly `count` items (Apple's `@Guide(.count(n))`).
    public static func array(of items: GenerationSchema, description: String? = nil, count: Int) -> GenerationSchema {
        array(of: items, description: description, minItems: count, maxItems: count)
    }

    /// An array whose item count is in `count` (Apple's `@Guide(.count(range))`).
    public static func array(of items: GenerationSchema, description: String? = nil, count: ClosedRange<Int>) -> GenerationSchema {
        array(of: items, description: description, minItems: count.lowerBound, maxItems: count.upperBound)
    }

    /// The schema of a `Generable` type, so a nested type is named rather than spelled out
    /// again; `description` replaces the type's own when given (Apple: `@Guide` on a property
    /// of a `@Generable` type).
    public static func generable<T: Generable>(_ type: T.Type, description: String? = nil) -> GenerationSchema {
        var schema = T.generationSchema
        if let description { schema.description = description }
        return schema
    }

    /// An object with these properties, written in this order.
    public static func object(_ properties: [Property], description: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .object(properties), description: description)
    }

    public static func anyOf(_ schemas: [GenerationSchema], description: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .anyOf(schemas), description: description)
    }

    /// A discriminated union: give each alternative a `constant` property (e.g. `"kind"`) so
    /// exactly one matches.
    public static func oneOf(_ schemas: [GenerationSchema], description: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .oneOf(schemas), description: description)
    }

    /// One of these JSON values (any types).
    public static func enumeration(_ values: [JSONValue], description: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .enumeration(values), description: description)
    }

    /// Exactly `value` (JSON Schema `const`), e.g. the tag of a union alternative.
    public static func constant(_ value: JSONValue, description: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .constant(value), description: description)
    }

    /// A string in a standard format: a date, a time, a UUID, an email address, a URI.
    public static func string(description: String? = nil, format: StringFormat) -> GenerationSchema {
        GenerationSchema(kind: .formatted(format), description: description)
    }

    /// An object mapping free keys to values of `values` (a dictionary).
    public static func dictionary(of values: GenerationSchema, description: String? = nil, maxProperties: Int? = nil) -> GenerationSchema {
        GenerationSchema(kind: .dictionary(values: values, maxProperties: maxProperties), description: description)
    }

    /// An array of one item per schema, in order (a tuple), optionally followed by `rest` items.
    public static func tuple(_ prefix: [GenerationSchema], rest: GenerationSchema? = nil, description: String? = nil,
                             maxItems: Int? = nil) -> GenerationSchema {
        GenerationSchema(kind: .tuple(prefix: prefix, rest: rest, maxItems: maxItems), description: description)
    }

    /// Any JSON value.
    public static func anyValue(description: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .anyValue, description: description)
    }

    /// The definition named `name` (see `defining(_:)`).
    public static func reference(_ name: String, description: String? = nil) -> GenerationSchema {
        GenerationSchema(kind: .reference(name), description: description)
    }

    /// `schema` or `null` (Apple: an optional property's type). The description moves outward.
    public static func nullable(_ schema: GenerationSchema) -> GenerationSchema {
        var inner = schema
        let description = inner.description
        inner.description = nil
        return GenerationSchema(kind: .anyOf([inner, .null]), description: description)
    }

    /// This schema with named definitions that `.reference(name)` can use, recursively too.
    public func defining(_ definitions: KeyValuePairs<String, GenerationSchema>) -> GenerationSchema {
        var copy = self
        copy.definitions += definitions.map { Definition(name: $0.key, schema: $0.value) }
        return copy
    }
}
