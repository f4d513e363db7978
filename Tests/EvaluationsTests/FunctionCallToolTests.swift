import Testing
import Evaluations
import LocalModel

@Suite("DynamicTool")
struct FunctionCallToolTests {
    static let schema: JSONValue = ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]]

    @Test func recordsEveryCallAndAnswersTheCannedResult() async throws {
        let tool = try DynamicTool(name: "get_weather", description: "Weather for a city", jsonSchema: Self.schema, result: "sunny")
        #expect(tool.calls.isEmpty)
        #expect(try await tool.call(arguments: .init(["city": "Lyon"])) == "sunny")
        #expect(try await tool.call(arguments: .init(["city": "Oslo"])) == "sunny")
        #expect(tool.calls == [["city": "Lyon"], ["city": "Oslo"]])
        #expect(tool.name == "get_weather" && tool.description == "Weather for a city")
        #expect(throws: Never.self) { try tool.parameters.validate(["city": "Lyon"]) }
    }

    @Test func aRefusedSchemaThrowsItsSchemaError() {
        #expect(throws: SchemaError.self) {
            try DynamicTool(name: "f", description: "d", jsonSchema: ["type": "object", "properties": ["x": ["not": ["type": "string"]]]])
        }
    }

    @Test func runsInsideASessionWithAScriptedModel() async throws {
        let tool = try DynamicTool(name: "get_weather", description: "Weather for a city", jsonSchema: Self.schema)
        let model = ScriptedLanguageModel(["<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lyon\"}}\n</tool_call>", "Done."])
        let session = LanguageModelSession(model: model, tools: [tool])
        _ = try await session.respond(to: "Weather in Lyon?", options: GenerationOptions(toolCallingMode: .required))
        #expect(tool.calls == [["city": "Lyon"]])
    }
}
