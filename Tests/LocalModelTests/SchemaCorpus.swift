import LocalModel
import Testing

/// One schema with JSON texts its grammar must accept and texts it must refuse.
struct SchemaCase: Sendable, CustomTestStringConvertible {
    let name: String
    let schema: GenerationSchema
    /// Valid for the schema and written the way the grammar allows (compact or single spaces).
    let valid: [String]
    /// Invalid for the schema (or not JSON): grammar and validator both refuse them.
    var invalid: [String] = []
    /// Valid for the schema but beyond what the grammar generates on purpose (caps, key order).
    var grammarOnly: [String] = []

    var testDescription: String { name }
}

/// The corpus the grammar compiler is checked against: every construct, combinations, and
/// realistic tool-argument schemas.
enum SchemaCorpus {
    static let address: GenerationSchema = .object([
        .property("street", .string(maxLength: 40)),
        .property("city", .string(maxLength: 30)),
    ])

    static let cases: [SchemaCase] = [
        // Strings
        SchemaCase(name: "plain string", schema: .string(),
                   valid: [#""hello""#, #""""#, #""esc \"q\" \\ \n \u00e9 \/""#, #""héllo ✓ 日本""#],
                   invalid: ["hello", #""a"#, "\"raw\ttab\"", "123", #""bad \x""#]),
        SchemaCase(name: "string maxLength", schema: .string(maxLength: 5),
                   valid: [#""abcde""#, #""""#, #""\n\t""#], invalid: [#""abcdef""#]),
        SchemaCase(name: "string min and max length", schema: .string(minLength: 2, maxLength: 4),
                   valid: [#""ab""#, #""abcd""#], invalid: [#""a""#, #""abcde""#]),
        SchemaCase(name: "string maxLength 0", schema: .string(maxLength: 0), valid: [#""""#], invalid: [#""a""#]),
        SchemaCase(name: "string enum", schema: .string(description: "a colour", anyOf: ["red", "green", "blue"]),
                   valid: [#""red""#, #""blue""#], invalid: [#""Red""#, #""purple""#, #""re""#, "red"]),
        SchemaCase(name: "string const", schema: .constant("v1"), valid: [#""v1""#], invalid: [#""v2""#, #""v1 ""#]),
        SchemaCase(name: "pattern code", schema: .string(pattern: "[a-z]{3}-[0-9]{2}"),
                   valid: [#""abc-12""#], invalid: [#""ab-12""#, #""ABC-12""#, #""abc-123""#]),
        SchemaCase(name: "pattern date", schema: .string(pattern: #"^\d{4}-\d{2}-\d{2}$"#),
                   valid: [#""2024-01-31""#], invalid: [#""2024-1-31""#, #""24-01-31""#]),
        SchemaCase(name: "pattern alternation", schema: .string(pattern: "(yes|no|maybe)"),
                   valid: [#""yes""#, #""maybe""#], invalid: [#""yesno""#, #""""#]),
        SchemaCase(name: "pattern plus, capped", schema: .string(maxLength: 10, pattern: "[A-Z][a-z]+"),
                   valid: [#""Hello""#, #""Abcdefghij""#], invalid: [#""hello""#, #""H""#]),
        SchemaCase(name: "pattern with quotes and backslash", schema: .string(pattern: #""[a-z]+"\\?"#),
                   valid: [#""\"abc\"""#, #""\"x\"\\""#], invalid: [#""abc""#, #""\"abc""#]),
        SchemaCase(name: "pattern dot with count", schema: .string(pattern: ".{2,3}"),
                   valid: [#""a b""#, #""ab""#], invalid: [#""abcd""#, #""a""#]),
        SchemaCase(name: "pattern negated class and optional group", schema: .string(pattern: #"[^ ]+( [^ ]+)?"#),
                   valid: [#""two words""#, #""one""#], invalid: [#""three word s""#, #"" lead""#]),
        // Integers
        SchemaCase(name: "integer unbounded", schema: .integer(),
                   valid: ["0", "-5", "123456", "-999999999999"], invalid: ["01", "1.5", #""1""#, "-", "+1"],
                   grammarOnly: ["1234567890123"]),
        SchemaCase(name: "integer 1...50", schema: .integer(minimum: 1, maximum: 50),
                   valid: ["1", "9", "10", "50", "42"], invalid: ["0", "51", "100", "-1", "05"]),
        SchemaCase(name: "integer 0...100", schema: .integer(in: 0...100),
                   valid: ["0", "100", "37"], invalid: ["101", "1000", "-1"], grammarOnly: ["-0"]),
        SchemaCase(name: "integer -10...10", schema: .integer(minimum: -10, maximum: 10),
                   valid: ["-10", "-1", "0", "7", "10"], invalid: ["-11", "11", "100"], grammarOnly: ["-0"]),
        SchemaCase(name: "integer negative range", schema: .integer(minimum: -500, maximum: -20),
                   valid: ["-20", "-500", "-123", "-99"], invalid: ["-19", "-501", "20", "0", "-5"]),
        SchemaCase(name: "integer minimum only", schema: .integer(minimum: 1000),
                   valid: ["1000", "999999999999", "5000"], invalid: ["999", "-1000", "0"],
                   grammarOnly: ["1000000000000"]),
        SchemaCase(name: "integer maximum only", schema: .integer(maximum: 5),
                   valid: ["5", "-42", "0", "-999999999999"], invalid: ["6", "10"]),
        SchemaCase(name: "integer years", schema: .integer(minimum: 1990, maximum: 2030),
                   valid: ["1990", "2000", "2030", "2019"], invalid: ["1989", "2031", "199", "20300"]),
        SchemaCase(name: "integer single value", schema: .integer(minimum: 7, maximum: 7),
                   valid: ["7"], invalid: ["6", "8", "77"]),
        SchemaCase(name: "integer large range", schema: .integer(minimum: 123, maximum: 45678),
                   valid: ["123", "999", "1000", "45678", "45599", "9999"], invalid: ["122", "45679", "46000", "99999"]),
        // Numbers
        SchemaCase(name: "number unbounded", schema: .number(),
                   valid: ["0", "-1.5", "3.14159", "42", "-0.000001", "1e5", "8.854e-12", "-2.5E+3"], invalid: [".5", "1.", #""1""#, "01.5", "--1", "1e", "1e+"],
                   grammarOnly: ["1.1234567", "1e100"]),
        SchemaCase(name: "number 0...1", schema: .number(in: 0...1),
                   valid: ["0", "1", "0.25", "1.0", "0.999", "1.000"], invalid: ["1.5", "2", "-0.1", "1.01"]),
        SchemaCase(name: "number -1...1", schema: .number(minimum: -1, maximum: 1),
                   valid: ["-1", "-0.5", "0.5", "1", "0"], invalid: ["-1.5", "1.01", "2", "-2"]),
        SchemaCase(name: "number minimum 0", schema: .number(description: "temperature", minimum: 0),
                   valid: ["0", "12.5", "1000"], invalid: ["-3", "-0.5"]),
        SchemaCase(name: "number non-integral bound", schema: .number(minimum: 10, maximum: 20.5),
                   valid: ["10", "20.5", "15.25"], invalid: ["9.99", "22", "100"]),
        SchemaCase(name: "number exclusive minimum", schema: .number(exclusiveMinimum: 0, exclusiveMaximum: 100),
                   valid: ["0.5", "3", "99.9"], invalid: ["-1", "101"]),
        // Booleans, null, enums, consts
        SchemaCase(name: "boolean", schema: .boolean(), valid: ["true", "false"], invalid: ["True", "1", #""true""#, "tru"]),
        SchemaCase(name: "null", schema: .null, valid: ["null"], invalid: ["nil", "0", "Null"]),
        SchemaCase(name: "mixed enum", schema: .enumeration([1, "two", nil, true, 2.5]),
                   valid: ["1", #""two""#, "null", "true", "2.5"], invalid: ["2", "false", #""three""#]),
        SchemaCase(name: "const object", schema: .constant(["a": [1, 2], "b": "x"]),
                   valid: [#"{"a":[1,2],"b":"x"}"#], invalid: [#"{"a":[1],"b":"x"}"#, #"{"b":"x"}"#]),
        // Nullable and unions
        SchemaCase(name: "nullable string", schema: .nullable(.string(maxLength: 10)),
                   valid: [#""x""#, "null"], invalid: ["5", #""12345678901""#]),
        SchemaCase(name: "nullable bounded integer", schema: .nullable(.integer(minimum: 1, maximum: 3)),
                   valid: ["2", "null"], invalid: ["4", "0"]),
        SchemaCase(name: "anyOf string or integer", schema: .anyOf([.string(maxLength: 8), .integer(in: 0...9)]),
                   valid: [#""a""#, "5"], invalid: ["true", "10", "null"]),
        SchemaCase(name: "oneOf discriminated shapes", schema: .oneOf([
            .object([.property("kind", .constant("circle")), .property("radius", .number(minimum: 0, maximum: 100))]),
            .object([.property("kind", .constant("rect")), .property("w", .integer(in: 1...100)), .property("h", .integer(in: 1...100))]),
        ]), valid: [#"{"kind":"circle","radius":2.5}"#, #"{"kind": "rect", "w": 2, "h": 3}"#],
                   invalid: [#"{"kind":"circle","w":2,"h":3}"#, #"{"kind":"triangle"}"#, #"{"radius":1}"#]),
        // Arrays
        SchemaCase(name: "array of strings", schema: .array(of: .string(maxLength: 10)),
                   valid: ["[]", #"["a"]"#, #"["a", "b"]"#, #"[ "a" ]"#, "[ ]"],
                   invalid: ["[,]", #"["a",]"#, "[1]", #"["a" "b"]"#]),
        SchemaCase(name: "array with count bounds", schema: .array(of: .integer(in: 0...9), minItems: 1, maxItems: 3),
                   valid: ["[1]", "[1,2,3]", "[1, 2]"], invalid: ["[]", "[1,2,3,4]", "[10]"]),
        SchemaCase(name: "array of exactly two", schema: .array(of: .number(), minItems: 2, maxItems: 2),
                   valid: ["[1.5,2]", "[0, -3]"], invalid: ["[1]", "[1,2,3]"]),
        SchemaCase(name: "array of tags", schema: .array(of: .string(anyOf: ["a", "b"]), maxItems: 4),
                   valid: [#"["a","b","a"]"#, "[]"], invalid: [#"["c"]"#, #"["a","a","a","a","a"]"#]),
        SchemaCase(name: "matrix", schema: .array(of: .array(of: .integer(in: -9...9), maxItems: 3), maxItems: 3),
                   valid: ["[[1,2],[3]]", "[[]]", "[]"], invalid: ["[[1],2]", "[[1,2,3,4]]"]),
        SchemaCase(name: "array default cap", schema: .array(of: .boolean()),
                   valid: ["[" + Array(repeating: "true", count: 16).joined(separator: ",") + "]"],
                   invalid: ["[true,]"],
                   grammarOnly: ["[" + Array(repeating: "true", count: 17).joined(separator: ",") + "]"]),
        SchemaCase(name: "zero items", schema: .array(of: .string(), maxItems: 0), valid: ["[]"], invalid: [#"["a"]"#]),
        // Objects
        SchemaCase(name: "object required", schema: .object([
            .property("name", .string(maxLength: 20)), .property("age", .integer(in: 0...150)),
        ]), valid: [#"{"name":"Ann","age":30}"#, #"{"name": "Ann", "age": 30}"#, #"{ "name" : "Ann", "age" : 0 }"#],
                   invalid: [#"{"name":"Ann"}"#, #"{"name":"Ann","age":30,"x":1}"#, #"{"name":"Ann","age":200}"#, #"{"name":"Ann","age":30,}"#],
                   grammarOnly: [#"{"age":30,"name":"Ann"}"#]),
        SchemaCase(name: "object all optional", schema: .object([
            .property("a", .integer(in: 0...9), optional: true), .property("b", .boolean(), optional: true),
        ]), valid: ["{}", #"{"a":1}"#, #"{"b":true}"#, #"{"a":1,"b":false}"#, "{ }", #"{ "a": 1 }"#],
                   invalid: ["{,}", #"{"a":1,}"#, #"{"c":1}"#, #"{,"b":true}"#]),
        SchemaCase(name: "object optional around required", schema: .object([
            .property("a", .string(maxLength: 5), optional: true), .property("b", .integer(in: 0...9)),
            .property("c", .boolean(), optional: true),
        ]), valid: [#"{"b":1}"#, #"{"a":"x","b":1}"#, #"{"b":1,"c":true}"#, #"{"a":"x","b":2,"c":false}"#],
                   invalid: ["{}", #"{"a":"x"}"#, #"{"a":"x","c":true}"#]),
        SchemaCase(name: "object without properties", schema: .object([]), valid: ["{}", "{ }"], invalid: [#"{"a":1}"#]),
        SchemaCase(name: "nested object", schema: .object([
            .property("user", .object([.property("name", .string(maxLength: 20)), .property("email", .string(maxLength: 40), optional: true)])),
            .property("tags", .array(of: .string(maxLength: 10), maxItems: 3)),
        ]), valid: [#"{"user":{"name":"Bo"},"tags":[]}"#, #"{"user": {"name": "Bo", "email": "b@x.org"}, "tags": ["a", "b"]}"#],
                   invalid: [#"{"user":{},"tags":[]}"#, #"{"user":{"name":"Bo"}}"#, #"{"user":{"name":"Bo"},"tags":["a","b","c","d"]}"#]),
        SchemaCase(name: "three levels", schema: .object([
            .property("a", .object([.property("b", .object([.property("c", .integer(in: 0...3))]))])),
        ]), valid: [#"{"a":{"b":{"c":3}}}"#], invalid: [#"{"a":{"b":{"c":4}}}"#, #"{"a":{"b":{}}}"#]),
        SchemaCase(name: "odd property names", schema: .object([
            .property("first name", .string(maxLength: 10)), .property("x-id", .integer(in: 0...99)),
            .property("çé", .boolean()), .property("a\"q", .null),
        ]), valid: [#"{"first name":"A","x-id":5,"çé":true,"a\"q":null}"#], invalid: [#"{"first name":"A","x-id":5,"çé":true}"#]),
        SchemaCase(name: "names colliding after sanitizing", schema: .object([
            .property("a b", .integer(in: 0...9)), .property("a-b", .string(maxLength: 3)), .property("a_b", .boolean()),
        ]), valid: [#"{"a b":1,"a-b":"x","a_b":true}"#], invalid: [#"{"a b":"x","a-b":1,"a_b":true}"#]),
        SchemaCase(name: "nullable object", schema: .nullable(address),
                   valid: ["null", #"{"street":"Main 1","city":"Oslo"}"#], invalid: [#"{"street":"Main 1"}"#]),
        SchemaCase(name: "array of union objects", schema: .array(of: .oneOf([
            .object([.property("type", .constant("text")), .property("text", .string(maxLength: 20))]),
            .object([.property("type", .constant("image")), .property("url", .string(maxLength: 40))]),
        ]), maxItems: 4), valid: [#"[{"type":"text","text":"hi"},{"type":"image","url":"a.png"}]"#],
                   invalid: [#"[{"type":"text","url":"a.png"}]"#]),
        // Definitions and references
        SchemaCase(name: "references to a definition", schema: GenerationSchema.object([
            .property("home", .reference("Address")), .property("work", .reference("Address"), optional: true),
        ]).defining(["Address": address]),
                   valid: [#"{"home":{"street":"A 1","city":"B"}}"#, #"{"home":{"street":"A 1","city":"B"},"work":{"street":"C","city":"D"}}"#],
                   invalid: [#"{"home":{"street":"A 1"}}"#, #"{"work":{"street":"C","city":"D"}}"#]),
        SchemaCase(name: "recursive tree", schema: GenerationSchema.reference("Node").defining([
            "Node": .object([.property("value", .integer(in: 0...99)),
                             .property("children", .array(of: .reference("Node"), maxItems: 3), optional: true)]),
        ]), valid: [#"{"value":1,"children":[{"value":2},{"value":3,"children":[]}]}"#, #"{"value":5}"#],
                   invalid: [#"{"value":1,"children":[{"children":[]}]}"#, #"{"value":1,"children":[{"value":100}]}"#]),
        SchemaCase(name: "recursive list", schema: GenerationSchema.reference("List").defining([
            "List": .object([.property("head", .string(maxLength: 5)), .property("tail", .nullable(.reference("List")))]),
        ]), valid: [#"{"head":"a","tail":{"head":"b","tail":null}}"#, #"{"head":"a","tail":null}"#],
                   invalid: [#"{"head":"a"}"#, #"{"head":"a","tail":{"head":"b"}}"#]),
        SchemaCase(name: "definition of a union", schema: GenerationSchema.array(of: .reference("Value"), maxItems: 3).defining([
            "Value": .anyOf([.string(maxLength: 5), .integer(in: 0...9), .null]),
        ]), valid: [#"["a",1,null]"#], invalid: ["[true]", "[10]"]),
        // Realistic tool arguments
        SchemaCase(name: "search tool", schema: .object([
            .property("query", .string(description: "Words to search for", maxLength: 80)),
            .property("limit", .integer(minimum: 1, maximum: 50), optional: true),
        ], description: "Search the user's notes"),
                   valid: [#"{"query":"hiking notes"}"#, #"{"query": "trail", "limit": 10}"#],
                   invalid: [#"{"limit":10}"#, #"{"query":"trail","limit":51}"#, #"{"query":"trail","limit":0}"#]),
        SchemaCase(name: "weather tool", schema: .object([
            .property("location", .string(description: "City name", maxLength: 60)),
            .property("unit", .string(anyOf: ["celsius", "fahrenheit"]), optional: true),
            .property("days", .integer(in: 1...7), optional: true),
        ]), valid: [#"{"location":"Paris"}"#, #"{"location":"Paris","unit":"celsius","days":3}"#, #"{"location":"Paris","days":7}"#],
                   invalid: [#"{"location":"Paris","unit":"kelvin"}"#, #"{"location":"Paris","days":8}"#],
                   grammarOnly: [#"{"location":"Paris","days":3,"unit":"celsius"}"#]),
        SchemaCase(name: "calendar event tool", schema: .object([
            .property("title", .string(maxLength: 60)),
            .property("start", .string(description: "ISO date and time", pattern: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}"#)),
            .property("durationMinutes", .integer(minimum: 5, maximum: 480)),
            .property("attendees", .array(of: .string(pattern: #"[a-z0-9.]+@[a-z0-9.]+"#), maxItems: 5)),
            .property("reminders", .array(of: .integer(in: 0...1440), maxItems: 3), optional: true),
        ]), valid: [#"{"title":"Standup","start":"2025-03-01T09:30","durationMinutes":15,"attendees":["a@b.co"]}"#,
                    #"{"title":"Review","start":"2025-03-01T14:00","durationMinutes":480,"attendees":[],"reminders":[10,1440]}"#],
                   invalid: [#"{"title":"X","start":"2025-03-01 09:30","durationMinutes":15,"attendees":[]}"#,
                             #"{"title":"X","start":"2025-03-01T09:30","durationMinutes":4,"attendees":[]}"#,
                             #"{"title":"X","start":"2025-03-01T09:30","durationMinutes":15,"attendees":["nobody"]}"#]),
        SchemaCase(name: "spotlight search tool", schema: .object([
            .property("query", .string(maxLength: 120)),
            .property("filters", .object([
                .property("kind", .string(anyOf: ["document", "message", "event"]), optional: true),
                .property("after", .string(pattern: #"\d{4}-\d{2}-\d{2}"#), optional: true),
            ]), optional: true),
            .property("limit", .integer(in: 1...20), optional: true),
            .property("fetchAttributes", .array(of: .string(anyOf: ["title", "textContent", "contentCreationDate"]), maxItems: 3), optional: true),
        ]), valid: [#"{"query":"tax"}"#, #"{"query":"tax","filters":{"kind":"document"},"fetchAttributes":["title"]}"#,
                    #"{"query":"tax","filters":{},"limit":5}"#],
                   invalid: [#"{"query":"tax","filters":{"kind":"photo"}}"#, #"{"query":"tax","limit":21}"#]),
        SchemaCase(name: "send message tool", schema: .object([
            .property("recipient", .string(maxLength: 40)), .property("body", .string(maxLength: 500)),
            .property("urgent", .boolean(), optional: true),
        ]), valid: [#"{"recipient":"Mum","body":"On my way\nsee you"}"#, #"{"recipient":"Mum","body":"","urgent":true}"#],
                   invalid: [#"{"recipient":"Mum"}"#, #"{"recipient":"Mum","body":"x","urgent":"yes"}"#]),
        SchemaCase(name: "calculator tool", schema: .object([
            .property("a", .number()), .property("b", .number()),
            .property("op", .string(anyOf: ["add", "subtract", "multiply", "divide"])),
        ]), valid: [#"{"a":1.5,"b":-2,"op":"add"}"#], invalid: [#"{"a":1,"b":2,"op":"pow"}"#, #"{"a":"1","b":2,"op":"add"}"#]),
        SchemaCase(name: "fetch tool with id pattern", schema: .object([
            .property("id", .string(description: "like trail-003", pattern: "trail-[0-9]{3}")),
        ]), valid: [#"{"id":"trail-003"}"#], invalid: [#"{"id":"trail-3"}"#, #"{"id":"path-003"}"#]),
        SchemaCase(name: "nullable fields in a record", schema: .object([
            .property("title", .string(maxLength: 30)), .property("rating", .nullable(.integer(in: 1...5))),
            .property("note", .nullable(.string(maxLength: 50)), optional: true),
        ]), valid: [#"{"title":"A","rating":null}"#, #"{"title":"A","rating":4,"note":null}"#],
                   invalid: [#"{"title":"A","rating":6}"#, #"{"title":"A"}"#]),
    ]

    /// Raw JSON Schemas as other systems write them, read with `GenerationSchema(jsonSchema:)`.
    static let rawJSONSchemas: [(name: String, text: String, valid: [String], invalid: [String])] = [
        ("function with nullable type list",
         #"{"type":"object","properties":{"city":{"type":"string","maxLength":30},"zip":{"type":["string","null"],"maxLength":10}},"required":["city","zip"]}"#,
         [#"{"city":"Rome","zip":null}"#, #"{"city":"Rome","zip":"00100"}"#], [#"{"city":"Rome"}"#]),
        ("integer with exclusive bounds",
         #"{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":10}"#, ["1", "9"], ["0", "10"]),
        ("definitions keyword and ref",
         ##"{"type":"object","properties":{"p":{"$ref":"#/definitions/P"}},"required":["p"],"definitions":{"P":{"type":"object","properties":{"x":{"type":"integer","minimum":0,"maximum":5}},"required":["x"]}}}"##,
         [#"{"p":{"x":3}}"#], [#"{"p":{"x":6}}"#, #"{"p":{}}"#]),
        // The JSON Schema that real tools are written in (issue 30).
        ("free-form object",
         #"{"type":"object","description":"any options"}"#,
         [#"{}"#, #"{"a":1}"#, #"{"a":{"b":[1,"x",null]},"c":true}"#], [#"[]"#, #""x""#, #"{"a":}"#]),
        ("map of integers",
         #"{"type":"object","additionalProperties":{"type":"integer","minimum":0},"maxProperties":3}"#,
         [#"{}"#, #"{"apples":3,"pears":0}"#], [#"{"apples":-1}"#, #"{"a":"x"}"#, #"{"a":1,"b":2,"c":3,"d":4}"#]),
        ("any value",
         #"{"description":"whatever fits"}"#,
         [#"1"#, #""text""#, #"[1,[2]]"#, #"{"k":null}"#, "true"], [#"[1,]"#, "nul"]),
        ("type list",
         #"{"type":["string","integer"],"maxLength":5,"minimum":0}"#,
         [#""abc""#, "7"], [#""abcdef""#, "-1", "1.5", "true"]),
        ("tuple",
         #"{"type":"array","prefixItems":[{"type":"number","minimum":-90,"maximum":90},{"type":"number","minimum":-180,"maximum":180}],"items":false}"#,
         ["[45.5,-120]", "[0, 0]"], ["[45.5]", "[91,0]", "[1,2,3]", #"["a",1]"#]),
        ("tuple with rest items",
         #"{"type":"array","prefixItems":[{"type":"string","maxLength":8}],"items":{"type":"integer"},"maxItems":3}"#,
         [#"["a"]"#, #"["a",1,2]"#], [#"["a",1,2,3]"#, #"["a","b"]"#, "[]"]),
        ("array without items",
         #"{"type":"array","maxItems":2}"#,
         ["[]", #"[1,"x"]"#], ["[1,2,3]", "{}"]),
        ("date", #"{"type":"string","format":"date"}"#, [#""2025-06-30""#], [#""2025-6-30""#, #""2025-13-01""#, #""30/06/2025""#]),
        ("date-time", #"{"type":"string","format":"date-time"}"#,
         [#""2025-06-30T14:05:00Z""#, #""2025-06-30T14:05:00.25+02:00""#], [#""2025-06-30 14:05:00Z""#, #""2025-06-30T25:00:00Z""#]),
        ("time", #"{"type":"string","format":"time"}"#, [#""14:05:00Z""#, #""23:59:60-05:00""#], [#""14:05""#, #""24:00:00Z""#]),
        ("uuid", #"{"type":"string","format":"uuid"}"#,
         [#""123e4567-e89b-12d3-a456-426614174000""#], [#""123e4567e89b12d3a456426614174000""#, #""123e4567-e89b-12d3-a456-42661417400g""#]),
        ("email", #"{"type":"string","format":"email"}"#, [#""ada@example.org""#, #""a.b+c@mail.example.co""#], [#""ada@""#, #""@example.org""#, #""ada@example""#]),
        ("uri", #"{"type":"string","format":"uri"}"#,
         [#""https://example.org/a?b=c#d""#, #""mailto:ada@example.org""#], [#""example.org""#, #""https://exa mple.org""#]),
        // The grammar follows the format's pattern; its length bound is checked by validation alone.
        ("format with a length bound", #"{"type":"string","format":"email","maxLength":12}"#, [#""ada@ex.org""#], [#""ada@""#]),
        ("unknown format is an annotation", #"{"type":"string","format":"hostname","maxLength":20}"#, [#""example.org""#], [#"12"#]),
        ("object with properties beside additionalProperties",
         #"{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":true}"#,
         [#"{"a":1}"#], [#"{}"#]),
        ("inferred object", #"{"properties":{"q":{"type":"string","maxLength":10}},"required":["q"]}"#, [#"{"q":"lake"}"#], [#"{}"#, "1"]),
        ("const", #"{"const":"fixed"}"#, [#""fixed""#], [#""other""#]),
    ]
}
