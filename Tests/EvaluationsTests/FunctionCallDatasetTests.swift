import Testing
import Evaluations
import LocalModel

/// The shipped function-calls dataset is checked against Lantern itself: every tool schema
/// converts, and every acceptable value, put in a call, validates against its schema. A case
/// that failed here would score the model against an answer it cannot write.
@Suite("Shipped function-calls dataset")
struct FunctionCallDatasetTests {
    static let cases: [FunctionCallCase] = (try? FunctionCallCaseReader().cases(contentsOf: SampleData.functionCalls)) ?? []

    @Test func readsAtLeastAHundredCases() throws {
        let cases = try FunctionCallCaseReader().cases(contentsOf: SampleData.functionCalls)
        #expect(cases.count >= 100)
        #expect(cases.contains { $0.tools.count >= 3 }, "choose-among-several questions")
        #expect(cases.contains { $0.tools.count == 1 }, "one-tool questions")
    }

    @Test func everyToolSchemaConverts() throws {
        for functionCallCase in Self.cases {
            for tool in functionCallCase.tools {
                #expect(throws: Never.self, "\(functionCallCase.id): \(tool.name)") {
                    try GenerationSchema(jsonSchema: tool.parameters)
                }
            }
        }
    }

    /// Each acceptable value of each argument, beside the first acceptable value of every other
    /// required argument, validates; and only the schema's properties are expected.
    @Test func everyAcceptableCallValidatesAgainstItsSchema() throws {
        #expect(!Self.cases.isEmpty)
        for functionCallCase in Self.cases {
            for call in functionCallCase.calls {
                let tool = try #require(functionCallCase.tools.first { $0.name == call.name })
                let schema = try GenerationSchema(jsonSchema: tool.parameters)
                let properties = Set(tool.parameters["properties"]?.objectValue?.keys ?? [])
                #expect(Set(call.arguments.keys).isSubset(of: properties), "\(functionCallCase.id): arguments outside the schema")
                let base = JSONObject(call.arguments.compactMap { name, acceptable in acceptable.values.first.map { (name, $0) } })
                for (name, acceptable) in call.arguments {
                    for value in acceptable.values {
                        var arguments = base
                        arguments[name] = value
                        #expect(throws: Never.self, "\(functionCallCase.id): \(name) = \(value.jsonString)") {
                            try schema.validate(.object(arguments), rootName: "arguments")
                        }
                    }
                }
                let required = tool.parameters["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
                for name in required {
                    #expect(call.arguments[name].map { !$0.optional } == true, "\(functionCallCase.id): \(name) is required by the schema")
                }
            }
        }
    }
}
