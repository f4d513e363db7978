import Foundation
import LocalModel
import Testing
import TestModelSupport

/// The vocabulary of the real default model: enough for llama.cpp's grammar parser and sampler.
enum GrammarOracle {
    private static let loaded = Result { () throws(LocalModelError) -> LocalModel in
        try LocalModel.vocabularyOnly(contentsOf: TestModel.url)
    }
    static func model() throws -> LocalModel { try loaded.get() }

    static func accepts(_ grammar: Grammar, _ text: String) throws -> Bool {
        try model().grammar(grammar.gbnf, root: grammar.root, accepts: text)
    }
}

@Suite("Compiling schemas to llama.cpp grammars")
struct GrammarCompilerTests {
    let compiler = GrammarCompiler()

    @Test func corpusHasAtLeastFiftySchemas() {
        #expect(SchemaCorpus.cases.count + SchemaCorpus.rawJSONSchemas.count >= 50)
    }

    @Test("llama.cpp parses the grammar; it accepts valid values and refuses invalid ones", arguments: SchemaCorpus.cases)
    func corpus(_ schemaCase: SchemaCase) throws {
        let grammar = try compiler.grammar(for: schemaCase.schema)
        try GrammarOracle.model().validateGrammar(grammar.gbnf, root: grammar.root)
        for text in schemaCase.valid {
            let value = try JSONValue(parsing: text)
            try schemaCase.schema.validate(value)
            #expect(try GrammarOracle.accepts(grammar, text), "grammar refused valid \(text)\n\(grammar.gbnf)")
            #expect(try GrammarOracle.accepts(grammar, value.jsonString), "grammar refused compact \(value.jsonString)")
        }
        for text in schemaCase.invalid {
            #expect(try !GrammarOracle.accepts(grammar, text), "grammar accepted invalid \(text)\n\(grammar.gbnf)")
            if let value = try? JSONValue(parsing: text) {
                #expect(throws: SchemaValidationError.self, "validator accepted invalid \(text)") { try schemaCase.schema.validate(value) }
            }
        }
        for text in schemaCase.grammarOnly {
            try schemaCase.schema.validate(JSONValue(parsing: text))
            #expect(try !GrammarOracle.accepts(grammar, text), "grammar accepted \(text), which is beyond its caps")
        }
    }

    @Test("raw JSON Schemas compile and constrain", arguments: SchemaCorpus.rawJSONSchemas.indices)
    func rawSchemas(_ index: Int) throws {
        let entry = SchemaCorpus.rawJSONSchemas[index]
        let schema = try GenerationSchema(jsonSchema: JSONValue(parsing: entry.text))
        let grammar = try compiler.grammar(for: schema)
        try GrammarOracle.model().validateGrammar(grammar.gbnf, root: grammar.root)
        for text in entry.valid {
            try schema.validate(JSONValue(parsing: text))
            #expect(try GrammarOracle.accepts(grammar, text), "\(entry.name): refused \(text)")
        }
        for text in entry.invalid {
            #expect(try !GrammarOracle.accepts(grammar, text), "\(entry.name): accepted \(text)")
            if let value = try? JSONValue(parsing: text) {
                #expect(throws: SchemaValidationError.self, "\(entry.name): validator accepted \(text)") { try schema.validate(value) }
            }
        }
    }

    @Test func compilingIsDeterministic() throws {
        for schemaCase in SchemaCorpus.cases {
            #expect(try compiler.grammar(for: schemaCase.schema) == compiler.grammar(for: schemaCase.schema))
        }
    }

    @Test func ruleNamesAreValidGBNFNames() throws {
        for schemaCase in SchemaCorpus.cases {
            for line in try compiler.grammar(for: schemaCase.schema).gbnf.split(separator: "\n") {
                let name = line.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
                #expect(!name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }, "\(line)")
            }
        }
    }

    @Test func whitespaceIsBoundedToOneSpace() throws {
        let grammar = try compiler.grammar(for: .object([.property("a", .integer(in: 0...9))]))
        #expect(try GrammarOracle.accepts(grammar, #"{ "a" : 1 }"#))
        #expect(try !GrammarOracle.accepts(grammar, #"{  "a": 1}"#))
        #expect(try !GrammarOracle.accepts(grammar, "{\n\"a\": 1}"))
        #expect(try !GrammarOracle.accepts(grammar, #"{"a":  1}"#))
    }

    @Test func optionsCapWhatTheSchemaLeavesOpen() throws {
        let tight = GrammarCompiler(options: .init(maximumStringLength: 3, maximumArrayItems: 2, maximumIntegerDigits: 2, maximumFractionDigits: 1))
        let schema: GenerationSchema = .object([
            .property("s", .string()), .property("a", .array(of: .boolean())), .property("i", .integer()), .property("n", .number()),
        ])
        let grammar = try tight.grammar(for: schema)
        try GrammarOracle.model().validateGrammar(grammar.gbnf, root: grammar.root)
        #expect(try GrammarOracle.accepts(grammar, #"{"s":"abc","a":[true,false],"i":-99,"n":9.5}"#))
        #expect(try !GrammarOracle.accepts(grammar, #"{"s":"abcd","a":[],"i":1,"n":1}"#))
        #expect(try !GrammarOracle.accepts(grammar, #"{"s":"","a":[true,true,true],"i":1,"n":1}"#))
        #expect(try !GrammarOracle.accepts(grammar, #"{"s":"","a":[],"i":100,"n":1}"#))
        #expect(try !GrammarOracle.accepts(grammar, #"{"s":"","a":[],"i":1,"n":1.25}"#))
        #expect(try !GrammarOracle.accepts(grammar, #"{"s":"","a":[],"i":1,"n":100}"#))
    }

    /// Found by Fuzz/grammar: a combining mark in a pattern joined the opening quote of its JSON
    /// spelling in one Character, so dropping the quotes left an empty literal ("" {1,256}),
    /// which llama.cpp refused.
    /// Literals next to each other are joined into one; a combining mark at the start of the
    /// second was lost (the grammar fuzz target found `\u{FFFD}\u{0485}\u{FFFD}` compiled without it).
    @Test func joinedLiteralsKeepACombiningMark() throws {
        let schema = GenerationSchema.string(pattern: "\u{FFFD}\u{0485}\u{FFFD}")
        let grammar = try compiler.grammar(for: schema)
        #expect(try GrammarOracle.accepts(grammar, JSONValue.string("\u{FFFD}\u{0485}\u{FFFD}").jsonString), "\(grammar.gbnf)")
        #expect(try !GrammarOracle.accepts(grammar, JSONValue.string("\u{FFFD}\u{FFFD}").jsonString), "\(grammar.gbnf)")
        try schema.validate(.string("\u{FFFD}\u{0485}\u{FFFD}"))
    }

    @Test func combiningMarkInPatternGivesAGrammarLlamaAccepts() throws {
        let grammar = try compiler.grammar(for: .string(pattern: "^<\u{0659}+$"))
        try GrammarOracle.model().validateGrammar(grammar.gbnf, root: grammar.root)
        #expect(try GrammarOracle.accepts(grammar, "\"<\u{0659}\u{0659}\""))
        #expect(try !GrammarOracle.accepts(grammar, "\"<\""))
    }

    @Test func countsBeyondLlamasRepetitionLimitAreClampedOrRefused() throws {
        let long = try compiler.grammar(for: .string(maxLength: 5000))
        try GrammarOracle.model().validateGrammar(long.gbnf, root: long.root)
        #expect(try GrammarOracle.accepts(long, "\"" + String(repeating: "a", count: 2000) + "\""))
        #expect(try !GrammarOracle.accepts(long, "\"" + String(repeating: "a", count: 2001) + "\""), "llama.cpp would read {0,5000} as unbounded")
        for schema: GenerationSchema in [.string(minLength: 2500), .array(of: .boolean(), minItems: 2001), .string(pattern: "a{2500}")] {
            #expect(throws: SchemaError.self) { try compiler.grammar(for: schema) }
        }
    }

    // MARK: Errors before generation

    @Test func contradictorySchemasAreRefusedNamingThePath() {
        let cases: [(GenerationSchema, String)] = [
            (.object([.property("q", .string(minLength: 5, maxLength: 2))]), "#/properties/q"),
            (.object([.property("n", .integer(minimum: 9, maximum: 1))]), "#/properties/n"),
            (.array(of: .boolean(), minItems: 3, maxItems: 1), "#"),
            (.enumeration([]), "#"),
            (.object([.property("a", .boolean()), .property("a", .null)]), "#"),
        ]
        for (schema, path) in cases {
            #expect {
                try compiler.grammar(for: schema)
            } throws: { error in
                guard case .invalid(_, let where_) = error as? SchemaError else { return false }
                return where_ == path
            }
        }
    }

    @Test func undefinedReferenceIsNamed() {
        #expect(throws: SchemaError.unresolvedReference(name: "Missing", path: "#/properties/x")) {
            try compiler.grammar(for: .object([.property("x", .reference("Missing"))]))
        }
    }

    @Test func leftRecursiveDefinitionIsRefusedBeforeLlamaSeesIt() {
        let schema = GenerationSchema.reference("A").defining(["A": .anyOf([.reference("B"), .null]), "B": .reference("A")])
        #expect {
            try compiler.grammar(for: schema)
        } throws: { error in
            guard case .unsupported(let construct, _, _) = error as? SchemaError else { return false }
            return construct.contains("refers to itself")
        }
    }

    @Test(arguments: [#"(a)\1"#, "(?=a)b", #"\bword"#, "a*?", "a{2,1}", "[z-a]", "(ab"])
    func inexpressiblePatternsAreRefusedByName(_ pattern: String) {
        #expect {
            try compiler.grammar(for: .object([.property("p", .string(pattern: pattern))]))
        } throws: { error in
            guard case .unsupported(let construct, let path, _) = error as? SchemaError else { return false }
            return construct.hasPrefix("pattern feature") && path == "#/properties/p/pattern"
        }
    }

    // MARK: Tool calls

    static let tools: [GrammarCompiler.ToolSignature] = [
        .init(name: "spotlight_search", arguments: .object([
            .property("query", .string(maxLength: 40)), .property("limit", .integer(in: 1...20), optional: true),
        ])),
        .init(name: "fetch", arguments: .object([.property("id", .string(pattern: "trail-[0-9]{3}"))])),
        .init(name: "tree", arguments: GenerationSchema.reference("Node").defining([
            "Node": .object([.property("v", .integer(in: 0...9)), .property("kids", .array(of: .reference("Node"), maxItems: 2), optional: true)]),
        ])),
        // Same definition name as another tool, different shape: each tool keeps its own.
        .init(name: "other.tool", arguments: GenerationSchema.reference("Node").defining(["Node": .object([.property("w", .boolean())])])),
    ]

    static func block(_ name: String, _ arguments: String) -> String {
        "<tool_call>\n{\"name\": \"\(name)\", \"arguments\": \(arguments)}\n</tool_call>"
    }

    @Test func toolCallGrammarTiesEachNameToItsArguments() throws {
        let grammar = try compiler.toolCallGrammar(for: Self.tools, maximumCalls: 2)
        try GrammarOracle.model().validateGrammar(grammar.gbnf, root: grammar.root)
        let accepted = [
            Self.block("spotlight_search", #"{"query": "hikes"}"#),
            Self.block("spotlight_search", #"{"query":"hikes","limit":3}"#),
            Self.block("fetch", #"{"id": "trail-003"}"#),
            Self.block("tree", #"{"v":1,"kids":[{"v":2},{"v":3,"kids":[]}]}"#),
            Self.block("other.tool", #"{"w":true}"#),
            Self.block("fetch", #"{"id":"trail-001"}"#) + "\n" + Self.block("spotlight_search", #"{"query":"x"}"#),
        ]
        for text in accepted { #expect(try GrammarOracle.accepts(grammar, text), "refused \(text)") }
        let refused = [
            Self.block("delete_everything", "{}"),
            Self.block("fetch", #"{"query": "hikes"}"#),
            Self.block("spotlight_search", #"{"id": "trail-003"}"#),
            Self.block("spotlight_search", #"{"query":"hikes","limit":30}"#),
            Self.block("other.tool", #"{"v":1}"#),
            "I will search. " + Self.block("fetch", #"{"id":"trail-001"}"#),
            "<tool_call>\n{\"name\": \"fetch\", \"arguments\": {\"id\":\"trail-001\"}}",
            Self.block("fetch", #"{"id":"trail-001"}"#) + "\n" + Self.block("fetch", #"{"id":"trail-002"}"#) + "\n" + Self.block("fetch", #"{"id":"trail-003"}"#),
            Self.block("fetch", #"{"id":"trail-001"}"#) + " trailing words",
        ]
        for text in refused { #expect(try !GrammarOracle.accepts(grammar, text), "accepted \(text)") }
    }

    /// A call object written bare (Qwen2.5-Coder's habit) is held to the same schemas when the
    /// grammar reads one; without `bareCall` only the tagged round is a call.
    @Test func aBareCallObjectIsHeldToItsToolsSchema() throws {
        let bare = try compiler.toolCallGrammar(for: Self.tools, maximumCalls: 2, bareCall: true)
        try GrammarOracle.model().validateGrammar(bare.gbnf, root: bare.root)
        let object = #"{"name": "fetch", "arguments": {"id": "trail-003"}}"#
        #expect(try GrammarOracle.accepts(bare, object))
        #expect(try GrammarOracle.accepts(bare, Self.block("spotlight_search", #"{"query": "hikes"}"#)), "the tagged round still is one")
        for refused in [#"{"name": "delete_everything", "arguments": {}}"#, #"{"name": "fetch", "arguments": {"query": "hikes"}}"#,
                        object + "\n" + object, object + " trailing words"] {
            #expect(try !GrammarOracle.accepts(bare, refused), "accepted \(refused)")
        }
        let tagged = try compiler.toolCallGrammar(for: Self.tools, maximumCalls: 2)
        #expect(try !GrammarOracle.accepts(tagged, object))
    }

    @Test func aBareCallObjectMayOpenAsTheModelSpacesIt() throws {
        // Qwen2.5-Coder-1.5B writes the object indented as often as not; the trigger finds it so
        let bare = try compiler.toolCallGrammar(for: Self.tools, maximumCalls: 2, bareCall: true)
        let rest = #""fetch", "arguments": {"id": "trail-003"}}"#
        for opening in ["{\n  \"name\": ", "{\n\t\"name\" :", "{ \"name\":\n    ", "{\r\n    \"name\": "] {
            #expect(try GrammarOracle.accepts(bare, opening + rest), "refused \(opening)")
        }
        #expect(try !GrammarOracle.accepts(bare, "{\n  \"na me\": " + rest))
        #expect(try !GrammarOracle.accepts(bare, "{" + String(repeating: " ", count: 65) + "\"name\": " + rest), "more spacing than the trigger watch keeps")
    }

    @Test func toolCallGrammarRefusesDuplicateOrNoTools() {
        let one = Self.tools[0]
        #expect(throws: SchemaError.self) { try compiler.toolCallGrammar(for: []) }
        #expect(throws: SchemaError.self) { try compiler.toolCallGrammar(for: [one, one]) }
        #expect(throws: SchemaError.self) { try compiler.toolCallGrammar(for: [one], maximumCalls: 0) }
    }
}

/// Number bounds that are not whole, or exclusive, are exact on the grid of fraction digits:
/// whatever the grammar lets the model write lies inside them (the grammar fuzz target found
/// `0` accepted under `minimum: 0.5`, and `-2` under `minimum: -1.5`).
@Suite("Number bounds in grammars")
struct NumberBoundGrammarTests {
    static let cases: [(schema: String, accepted: [String], refused: [String])] = [
        (#"{"type": "number", "minimum": 0.5, "exclusiveMaximum": 2}"#,
         ["0.5", "0.51", "1", "1.999999", "0.500000"], ["0", "0.4", "0.499999", "2", "2.0", "-1"]),
        (#"{"type": "number", "minimum": -1.5, "maximum": 2}"#,
         ["-1.5", "-1.49", "-1", "0", "2", "2.000", "1.25"], ["-2", "-1.6", "-1.500001", "2.000001", "3"]),
        (#"{"type": "number", "exclusiveMinimum": 0.1, "maximum": 0.2}"#,
         ["0.100001", "0.2", "0.15"], ["0.1", "0.100000", "0", "0.2000001", "0.200001"]),
        (#"{"type": "number", "minimum": 0.1}"#, ["0.1", "0.11", "5", "999"], ["0.09", "0", "-0.1"]),
        (#"{"type": "number", "exclusiveMinimum": -3, "exclusiveMaximum": -2.75}"#,
         ["-2.9", "-2.750001", "-2.999999"], ["-3", "-2.75", "-2", "-3.000001", "0"]),
    ]

    @Test(arguments: cases.indices)
    func theGrammarAcceptsExactlyTheNumbersInside(index: Int) throws {
        let (source, accepted, refused) = Self.cases[index]
        let schema = try GenerationSchema(jsonSchema: JSONValue(parsing: source))
        let grammar = try GrammarCompiler().grammar(for: schema)
        for text in accepted {
            #expect(try GrammarOracle.accepts(grammar, text), "\(source) should accept \(text)\n\(grammar.gbnf)")
            #expect((try? schema.validate(JSONValue(parsing: text))) != nil, "\(source) validates \(text)")
        }
        for text in refused {
            #expect(try !GrammarOracle.accepts(grammar, text), "\(source) should refuse \(text)\n\(grammar.gbnf)")
        }
    }

    @Test func boundsThatLeaveNoNumberAreRefused() {
        let source = #"{"type": "number", "exclusiveMinimum": 1, "maximum": 1}"#
        #expect(throws: SchemaError.self) {
            try GrammarCompiler().grammar(for: GenerationSchema(jsonSchema: JSONValue(parsing: source)))
        }
    }
}
