import LocalModel
import Testing

@Suite("GenerationSchema: JSON Schema and validation")
struct GenerationSchemaTests {
    @Test("schema -> JSON Schema -> schema gives the same schema", arguments: SchemaCorpus.cases)
    func roundTripsThroughJSONSchema(_ schemaCase: SchemaCase) throws {
        let rendered = schemaCase.schema.jsonSchema
        let read = try GenerationSchema(jsonSchema: rendered)
        #expect(read.jsonSchema.jsonString == rendered.jsonString)
        // The JSON text itself survives a parse, so a schema can be stored and reloaded.
        #expect(try GenerationSchema(jsonSchema: JSONValue(parsing: rendered.jsonString)).jsonSchema.jsonString == rendered.jsonString)
    }

    @Test(arguments: [
        #"{"type":"object","description":"args","properties":{"q":{"type":"string","maxLength":80},"n":{"type":"integer","minimum":1,"maximum":50}},"required":["q"],"additionalProperties":false}"#,
        #"{"type":"array","items":{"type":"number","minimum":0.5,"exclusiveMaximum":2},"minItems":1,"maxItems":3}"#,
        #"{"anyOf":[{"type":"string","pattern":"^[a-z]+$"},{"type":"null"}]}"#,
        #"{"oneOf":[{"type":"object","properties":{"kind":{"type":"string","const":"a"}},"required":["kind"],"additionalProperties":false},{"type":"boolean"}]}"#,
        #"{"type":"string","enum":["x","y"]}"#,
        #"{"enum":[1,"x",null]}"#,
        ##"{"$ref":"#/$defs/T","$defs":{"T":{"type":"object","properties":{"next":{"anyOf":[{"$ref":"#/$defs/T"},{"type":"null"}]}},"required":["next"],"additionalProperties":false}}}"##,
    ])
    func canonicalJSONSchemaRoundTrips(_ text: String) throws {
        let json = try JSONValue(parsing: text)
        #expect(try GenerationSchema(jsonSchema: json).jsonSchema.jsonString == json.jsonString)
    }

    @Test func propertyOrderAndRequiredAreKept() throws {
        let schema = try GenerationSchema(jsonSchema: JSONValue(parsing:
            #"{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"integer"},"m":{"type":"boolean"}},"required":["m","z"]}"#))
        guard case .object(let properties) = schema.kind else { Issue.record("not an object"); return }
        #expect(properties.map(\.name) == ["z", "a", "m"])
        #expect(properties.map(\.isOptional) == [false, true, false])
    }

    @Test(arguments: [
        (#"{"allOf":[{"type":"string"}]}"#, "#/allOf"),
        (#"{"type":"object","properties":{"a":{"type":"string","not":{"const":"x"}}}}"#, "#/properties/a/not"),
        (#"{"$ref":"https://example.org/s.json"}"#, "#"),
        (#"{"type":"array","items":{"type":"integer"},"uniqueItems":true}"#, "#/uniqueItems"),
    ] as [(String, String)])
    func unsupportedConstructsAreNamedWithTheirPath(_ text: String, _ path: String) throws {
        let json = try JSONValue(parsing: text)
        #expect {
            try GenerationSchema(jsonSchema: json)
        } throws: { error in
            guard case .unsupported(_, let where_, _) = error as? SchemaError else { return false }
            return where_ == path
        }
    }

    /// A pattern (or format) with length bounds: the grammar follows the pattern, which no
    /// grammar can intersect with a length, so validation is what enforces the bounds.
    @Test func aPatternsLengthBoundsAreCheckedByValidation() throws {
        let schema = try GenerationSchema(jsonSchema: JSONValue(parsing: #"{"type":"string","format":"email","maxLength":12}"#))
        #expect(throws: SchemaValidationError.self) { try schema.validate(.string("ada@example.org")) }
        try schema.validate(.string("ada@ex.org"))
    }

    /// Patterns match Unicode scalars, as the grammar does: `}` followed by a combining mark is
    /// two characters of `[a-\u{FFFD}]` (found by the grammar fuzz target; Swift's default reads
    /// them as one grapheme, which the class did not match).
    @Test func patternsMatchUnicodeScalarsAsTheGrammarDoes() throws {
        let schema = GenerationSchema.string(pattern: "[a-\u{FFFD}]+")
        try schema.validate(.string("}\u{0364}d"))
        let grammar = try GrammarCompiler().grammar(for: schema)
        #expect(try GrammarOracle.accepts(grammar, JSONValue.string("}\u{0364}d").jsonString))
    }

    @Test func malformedSchemasAreInvalid() throws {
        for text in [#"{"enum":[]}"#, #"{"type":"string","maxLength":-1}"#, #"{"type":"object","properties":{},"required":["x"]}"#, "[1]"] {
            #expect(throws: SchemaError.self, "\(text)") { try GenerationSchema(jsonSchema: JSONValue(parsing: text)) }
        }
    }

    // MARK: Validation

    static let arguments: GenerationSchema = .object([
        .property("query", .object([
            .property("text", .string(maxLength: 10)),
            .property("limit", .integer(minimum: 1, maximum: 50), optional: true),
        ])),
        .property("tags", .array(of: .string(anyOf: ["a", "b"]), maxItems: 2), optional: true),
        .property("range", .nullable(.number(minimum: 0, maximum: 1)), optional: true),
    ])

    @Test(arguments: [
        (#"{"query":{"text":"x","limit":120}}"#, "arguments.query.limit: 120 is above the maximum 50"),
        (#"{"query":{"text":"x","limit":0}}"#, "arguments.query.limit: 0 is below the minimum 1"),
        (#"{"query":{"text":"x","limit":1.5}}"#, "arguments.query.limit: expected an integer, found 1.5"),
        (#"{"query":{"limit":1}}"#, "arguments.query: missing required property \"text\""),
        (#"{"query":{"text":"x"},"extra":1}"#, "arguments: unexpected property \"extra\" (allowed: query, tags, range)"),
        (#"{"query":{"text":"x"},"tags":["a","c"]}"#, "arguments.tags[1]: \"c\" is not one of \"a\", \"b\""),
        (#"{"query":{"text":"x"},"tags":["a","b","a"]}"#, "arguments.tags: has 3 items, more than the maximum 2"),
        (#"{"query":{"text":"x"},"range":1.5}"#, "arguments.range: 1.5 is above the maximum 1"),
        (#"{"query":{"text":"01234567890"}}"#, "arguments.query.text: \"01234567890\" is longer than the maximum length 10 (11 characters)"),
    ] as [(String, String)])
    func validationErrorsNameThePath(_ text: String, _ message: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(throws: SchemaValidationError.self) { try Self.arguments.validate(value, rootName: "arguments") }
        do {
            try Self.arguments.validate(value, rootName: "arguments")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func validValuesPass() throws {
        try Self.arguments.validate(JSONValue(parsing: #"{"query":{"text":"x"}}"#))
        try Self.arguments.validate(JSONValue(parsing: #"{"query":{"text":"x","limit":50},"tags":["b"],"range":null}"#))
        try Self.arguments.validate(JSONValue(parsing: #"{"range":0.5,"query":{"text":""}}"#))
    }

    @Test func oneOfRefusesAValueMatchingTwoAlternatives() throws {
        let schema: GenerationSchema = .oneOf([.integer(in: 0...10), .number(minimum: 5)])
        try schema.validate(.int(2))
        try schema.validate(.double(20.5))
        #expect(throws: SchemaValidationError.self) { try schema.validate(.int(7)) }
    }

    @Test func patternsMatchTheWholeString() throws {
        let schema: GenerationSchema = .string(pattern: "[a-z]+")
        try schema.validate("abc")
        #expect(throws: SchemaValidationError.self) { try schema.validate("abc1") }
        #expect(schema.jsonSchema["pattern"] == "^[a-z]+$")
    }

    // MARK: Generable

    struct Hike: Generable, Codable, Equatable {
        var trail: String
        var stars: Int
        var tags: [String]?
        static let generationSchema: GenerationSchema = .object([
            .property("trail", .string(description: "Trail name", maxLength: 40)),
            .property("stars", .integer(in: 1...5)),
            .property("tags", .array(of: .string(maxLength: 12), maxItems: 3), optional: true),
        ])
    }

    @Test func generableTypesDecodeAndDescribeThemselves() throws {
        let content = try GeneratedContent(parsing: #"{"trail":"Ridge","stars":4}"#)
        try Hike.generationSchema.validate(content)
        let hike = try Hike(content)
        #expect(hike == Hike(trail: "Ridge", stars: 4, tags: nil))
        let back = try hike.generatedContent
        try Hike.generationSchema.validate(back)
        #expect(try Hike(back) == hike)
        let grammar = try GrammarCompiler().grammar(for: Hike.generationSchema)
        #expect(try GrammarOracle.accepts(grammar, content.jsonString))
        #expect(throws: JSONCodingError.self) { try Hike(GeneratedContent(parsing: #"{"trail":"Ridge"}"#)) }
    }
}
