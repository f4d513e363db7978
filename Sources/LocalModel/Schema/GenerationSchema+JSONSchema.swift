extension GenerationSchema {
    /// The schema as JSON Schema (draft 2020-12 keywords), keys in a fixed order: `type`,
    /// `description`, the constraints, then `$defs`. Patterns are written anchored (`^…$`)
    /// because Lantern's patterns match whole strings.
    public var jsonSchema: JSONValue {
        var out = JSONObject()
        func put(_ key: String, _ value: JSONValue?) { if let value { out[key] = value } }
        // Whole bounds read better as 5 than 5.0 in a prompt; both read back the same.
        func number(_ d: Double) -> JSONValue { Int(exactly: d).map(JSONValue.int) ?? .double(d) }
        func typeName(_ values: [JSONValue]) -> JSONValue? {
            guard let first = values.first?.typeName, ["string", "integer", "number", "boolean"].contains(first),
                  values.allSatisfy({ $0.typeName == first }) else { return nil }
            return .string(first)
        }
        switch kind {
        case .string(let minLength, let maxLength, let pattern):
            put("type", "string")
            put("description", description.map(JSONValue.string))
            put("minLength", minLength.map(JSONValue.int))
            put("maxLength", maxLength.map(JSONValue.int))
            put("pattern", pattern.map { .string(PatternTranslator.anchored($0)) })
        case .integer(let minimum, let maximum):
            put("type", "integer")
            put("description", description.map(JSONValue.string))
            put("minimum", minimum.map(JSONValue.int))
            put("maximum", maximum.map(JSONValue.int))
        case .number(let minimum, let maximum, let exclusiveMinimum, let exclusiveMaximum):
            put("type", "number")
            put("description", description.map(JSONValue.string))
            put("minimum", minimum.map(number))
            put("maximum", maximum.map(number))
            put("exclusiveMinimum", exclusiveMinimum.map(number))
            put("exclusiveMaximum", exclusiveMaximum.map(number))
        case .boolean:
            put("type", "boolean")
            put("description", description.map(JSONValue.string))
        case .null:
            put("type", "null")
            put("description", description.map(JSONValue.string))
        case .array(let items, let minItems, let maxItems):
            put("type", "array")
            put("description", description.map(JSONValue.string))
            put("items", items.jsonSchema)
            put("minItems", minItems.map(JSONValue.int))
            put("maxItems", maxItems.map(JSONValue.int))
        case .object(let properties):
            put("type", "object")
            put("description", description.map(JSONValue.string))
            put("properties", .object(JSONObject(properties.map { ($0.name, $0.schema.jsonSchema) })))
            put("required", .array(properties.filter { !$0.isOptional }.map { .string($0.name) }))
            put("additionalProperties", false)
        case .anyOf(let schemas):
            put("description", description.map(JSONValue.string))
            put("anyOf", .array(schemas.map(\.jsonSchema)))
        case .oneOf(let schemas):
            put("description", description.map(JSONValue.string))
            put("oneOf", .array(schemas.map(\.jsonSchema)))
        case .enumeration(let values):
            put("type", typeName(values))
            put("description", description.map(JSONValue.string))
            put("enum", .array(values))
        case .constant(let value):
            put("type", typeName([value]))
            put("description", description.map(JSONValue.string))
            put("const", value)
        case .reference(let name):
            put("$ref", .string("#/$defs/" + name))
            put("description", description.map(JSONValue.string))
        case .formatted(let format):
            put("type", "string")
            put("description", description.map(JSONValue.string))
            put("format", .string(format.rawValue))
        case .dictionary(let values, let maxProperties):
            put("type", "object")
            put("description", description.map(JSONValue.string))
            put("additionalProperties", values.kind == .anyValue && values.description == nil ? .bool(true) : values.jsonSchema)
            put("maxProperties", maxProperties.map(JSONValue.int))
        case .tuple(let prefix, let rest, let maxItems):
            put("type", "array")
            put("description", description.map(JSONValue.string))
            put("prefixItems", .array(prefix.map(\.jsonSchema)))
            put("items", rest?.jsonSchema ?? .bool(false))
            put("maxItems", maxItems.map(JSONValue.int))
        case .anyValue:
            put("description", description.map(JSONValue.string))
        }
        if !definitions.isEmpty {
            put("$defs", .object(JSONObject(definitions.map { ($0.name, $0.schema.jsonSchema) })))
        }
        return .object(out)
    }

    /// Reads a JSON Schema, so callers can pass raw schemas (an MCP tool's, an OpenAI-style
    /// function's). Throws naming the first keyword Lantern cannot honour and where it is.
    ///
    /// Accepted: `type` (one, or a list: `["string", "null"]` and any other combination, read as
    /// `anyOf`), no `type` (inferred from the keywords present, else any value), `true`,
    /// `description`, `enum`, `const`, `anyOf`, `oneOf`, `$ref` to `#/$defs/…` or
    /// `#/definitions/…`, `$defs`/`definitions`, string `minLength`/`maxLength`/`pattern`/`format`
    /// (date, date-time, time, uuid, email and uri are generated to their syntax; other formats
    /// are annotations), number and integer `minimum`/`maximum`/exclusive bounds, array
    /// `items`/`minItems`/`maxItems` and `prefixItems` (a tuple: every prefix item is written),
    /// object `properties`/`required`/`additionalProperties`/`maxProperties` (listed properties
    /// are generated closed; without them an object is a map of its `additionalProperties`, or of
    /// any values). Annotations (`title`, `examples`, `default`, `$schema`, `$id`, `$comment`)
    /// are ignored. Patterns are taken to match the whole string.
    public init(jsonSchema: JSONValue) throws(SchemaError) {
        self = try JSONSchemaReader.read(jsonSchema, path: "#")
    }
}

/// Turns JSON Schema into `GenerationSchema`, one keyword at a time, refusing what it cannot keep.
private enum JSONSchemaReader {
    static let annotations: Set<String> = ["title", "examples", "default", "$schema", "$id", "$comment"]

    static func read(_ json: JSONValue, path: String) throws(SchemaError) -> GenerationSchema {
        guard case .object(let object) = json else {
            if json == .bool(true) { return .anyValue() }
            if json == .bool(false) { throw .invalid(reason: "the schema false admits no value", path: path) }
            throw .invalid(reason: "a schema must be an object, found \(json.jsonString)", path: path)
        }
        var used: Set<String> = annotations.union(["description", "$defs", "definitions"])
        func take(_ key: String) -> JSONValue? {
            used.insert(key)
            return object[key]
        }

        let description = try optionalString(take("description"), path: path + "/description")
        var definitions: [GenerationSchema.Definition] = []
        for key in ["$defs", "definitions"] {
            guard let defs = object[key] else { continue }
            guard case .object(let members) = defs else { throw .invalid(reason: "\(key) must be an object", path: path) }
            for (name, schema) in members {
                definitions.append(.init(name: name, schema: try read(schema, path: "\(path)/\(key)/\(name)")))
            }
        }

        var kind: GenerationSchema.Kind
        var nullable = false
        if let ref = take("$ref") {
            guard case .string(let text) = ref else { throw .invalid(reason: "$ref must be a string", path: path) }
            guard let name = ["#/$defs/", "#/definitions/"].lazy.compactMap({ text.hasPrefix($0) ? String(text.dropFirst($0.count)) : nil }).first,
                  !name.isEmpty, !name.contains("/")
            else {
                throw .unsupported(construct: "$ref \"\(text)\"", path: path, hint: "only references to #/$defs/<name> (or #/definitions/<name>) are supported")
            }
            kind = .reference(name)
        } else if let value = take("const") {
            _ = take("type")
            kind = .constant(value)
        } else if let values = take("enum") {
            _ = take("type")
            guard case .array(let items) = values, !items.isEmpty else {
                throw .invalid(reason: "enum must be a non-empty array", path: path + "/enum")
            }
            kind = .enumeration(items)
        } else if let alternatives = take("anyOf") ?? take("oneOf") {
            let isOneOf = object["oneOf"] != nil && object["anyOf"] == nil
            let keyword = isOneOf ? "oneOf" : "anyOf"
            guard case .array(let items) = alternatives, !items.isEmpty else {
                throw .invalid(reason: "\(keyword) must be a non-empty array of schemas", path: path + "/" + keyword)
            }
            var schemas: [GenerationSchema] = []
            for (i, item) in items.enumerated() { schemas.append(try read(item, path: "\(path)/\(keyword)/\(i)")) }
            kind = isOneOf ? .oneOf(schemas) : .anyOf(schemas)
        } else if let type = take("type") {
            var names: [String]
            switch type {
            case .string(let name): names = [name]
            case .array(let items): names = items.compactMap(\.stringValue)
            default: throw .invalid(reason: "type must be a string or an array of strings", path: path + "/type")
            }
            if names.count == 2, names.contains("null") {
                nullable = true
                names.removeAll { $0 == "null" }
            }
            guard !names.isEmpty else { throw .invalid(reason: "type must name at least one type", path: path + "/type") }
            if names.count == 1 {
                kind = try readTyped(names[0], object, path: path, take: take)
            } else {
                var alternatives: [GenerationSchema] = []
                for name in names { alternatives.append(GenerationSchema(kind: try readTyped(name, object, path: path, take: take))) }
                kind = .anyOf(alternatives)
            }
        } else if let name = inferredType(object) {
            kind = try readTyped(name, object, path: path, take: take)
        } else {
            kind = .anyValue
        }

        for key in object.keys where !used.contains(key) {
            throw .unsupported(construct: "keyword \"\(key)\"", path: "\(path)/\(key)", hint: "remove it or express it with the supported keywords (see GenerationSchema.init(jsonSchema:))")
        }
        if nullable { kind = .anyOf([GenerationSchema(kind: kind), .null]) }
        return GenerationSchema(kind: kind, description: description, definitions: definitions)
    }

    /// The type a schema without `type` has by its keywords, or nil for any value.
    private static func inferredType(_ object: JSONObject) -> String? {
        let byKeyword: [(type: String, keywords: [String])] = [
            ("object", ["properties", "additionalProperties", "required", "maxProperties"]),
            ("array", ["items", "prefixItems", "minItems", "maxItems"]),
            ("string", ["minLength", "maxLength", "pattern", "format"]),
            ("number", ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
        ]
        return byKeyword.first { entry in entry.keywords.contains { object[$0] != nil } }?.type
    }

    private static func readTyped(_ name: String, _ object: JSONObject, path: String,
                                  take: (String) -> JSONValue?) throws(SchemaError) -> GenerationSchema.Kind {
        switch name {
        case "string":
            let pattern = try optionalString(take("pattern"), path: path + "/pattern")
            let minLength = try optionalCount(take("minLength"), path: path + "/minLength")
            let maxLength = try optionalCount(take("maxLength"), path: path + "/maxLength")
            // A format with a syntax is written to it; a pattern, when given too, wins.
            let format = try optionalString(take("format"), path: path + "/format").flatMap(StringFormat.init(rawValue:))
            if let format, pattern == nil {
                if minLength == nil && maxLength == nil { return .formatted(format) }
                return .string(minLength: minLength, maxLength: maxLength, pattern: format.pattern)
            }
            return .string(minLength: minLength, maxLength: maxLength, pattern: pattern.map(PatternTranslator.unanchored))
        case "integer":
            // Integer bounds: round inward; an exclusive bound x becomes the next whole number past x.
            var minimum = try optionalNumber(take("minimum"), path: path + "/minimum").map { clamped($0.rounded(.up)) }
            var maximum = try optionalNumber(take("maximum"), path: path + "/maximum").map { clamped($0.rounded(.down)) }
            if let exclusive = try optionalNumber(take("exclusiveMinimum"), path: path + "/exclusiveMinimum") {
                let bound = clamped(exclusive.rounded(.down)).addingReportingOverflow(1).partialValue
                minimum = max(minimum ?? bound, bound)
            }
            if let exclusive = try optionalNumber(take("exclusiveMaximum"), path: path + "/exclusiveMaximum") {
                let bound = clamped(exclusive.rounded(.up)).subtractingReportingOverflow(1).partialValue
                maximum = min(maximum ?? bound, bound)
            }
            return .integer(minimum: minimum, maximum: maximum)
        case "number":
            return .number(minimum: try optionalNumber(take("minimum"), path: path + "/minimum"),
                           maximum: try optionalNumber(take("maximum"), path: path + "/maximum"),
                           exclusiveMinimum: try optionalNumber(take("exclusiveMinimum"), path: path + "/exclusiveMinimum"),
                           exclusiveMaximum: try optionalNumber(take("exclusiveMaximum"), path: path + "/exclusiveMaximum"))
        case "boolean": return .boolean
        case "null": return .null
        case "array":
            let items = take("items")
            if let prefixItems = take("prefixItems") {
                guard case .array(let schemas) = prefixItems, !schemas.isEmpty else {
                    throw .invalid(reason: "prefixItems must be a non-empty array of schemas", path: path + "/prefixItems")
                }
                var prefix: [GenerationSchema] = []
                for (i, schema) in schemas.enumerated() { prefix.append(try read(schema, path: "\(path)/prefixItems/\(i)")) }
                // Without items, or with items: false, the tuple is closed (every listed item, no more).
                let rest = try items.flatMap { items throws(SchemaError) in items == .bool(false) ? nil : try read(items, path: path + "/items") }
                _ = take("minItems")
                return .tuple(prefix: prefix, rest: rest, maxItems: try optionalCount(take("maxItems"), path: path + "/maxItems"))
            }
            return .array(items: try items.map { items throws(SchemaError) in try read(items, path: path + "/items") } ?? .anyValue(),
                          minItems: try optionalCount(take("minItems"), path: path + "/minItems"),
                          maxItems: try optionalCount(take("maxItems"), path: path + "/maxItems"))
        case "object":
            // Listed properties are generated closed, whatever additionalProperties allows beside them.
            let additional = take("additionalProperties")
            let maxProperties = try optionalCount(take("maxProperties"), path: path + "/maxProperties")
            guard let propertiesValue = take("properties") else {
                _ = take("required")
                if additional == .bool(false) { return .object([]) }
                let values = try additional.flatMap { additional throws(SchemaError) in
                    additional == .bool(true) ? nil : try read(additional, path: path + "/additionalProperties")
                } ?? .anyValue()
                return .dictionary(values: values, maxProperties: maxProperties)
            }
            guard case .object(let members) = propertiesValue else { throw .invalid(reason: "properties must be an object", path: path + "/properties") }
            var required: [String] = []
            if let requiredValue = take("required") {
                guard case .array(let names) = requiredValue else { throw .invalid(reason: "required must be an array of names", path: path + "/required") }
                for name in names {
                    guard case .string(let s) = name else { throw .invalid(reason: "required must be an array of names", path: path + "/required") }
                    guard members[s] != nil else { throw .invalid(reason: "required property \"\(s)\" is not under properties", path: path + "/required") }
                    required.append(s)
                }
            }
            var properties: [GenerationSchema.Property] = []
            for (name, schema) in members {
                properties.append(.init(name: name, schema: try read(schema, path: "\(path)/properties/\(name)"),
                                        isOptional: !required.contains(name)))
            }
            return .object(properties)
        default:
            throw .unsupported(construct: "type \"\(name)\"", path: path + "/type", hint: "use string, integer, number, boolean, null, array or object")
        }
    }

    private static func clamped(_ d: Double) -> Int {
        if d >= 9.2e18 { return Int.max }
        if d <= -9.2e18 { return Int.min }
        return Int(d)
    }

    private static func optionalString(_ value: JSONValue?, path: String) throws(SchemaError) -> String? {
        guard let value else { return nil }
        guard case .string(let s) = value else { throw .invalid(reason: "expected a string, found \(value.jsonString)", path: path) }
        return s
    }

    private static func optionalCount(_ value: JSONValue?, path: String) throws(SchemaError) -> Int? {
        guard let value else { return nil }
        guard let n = value.intValue, n >= 0 else { throw .invalid(reason: "expected a non-negative integer, found \(value.jsonString)", path: path) }
        return n
    }

    private static func optionalNumber(_ value: JSONValue?, path: String) throws(SchemaError) -> Double? {
        guard let value else { return nil }
        guard let d = value.doubleValue else { throw .invalid(reason: "expected a number, found \(value.jsonString)", path: path) }
        return d
    }
}
