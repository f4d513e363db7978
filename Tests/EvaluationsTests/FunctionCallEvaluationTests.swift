import Foundation
import Testing
import Evaluations
import LocalModel
import TestModelSupport

@Suite("Function-calling evaluation", .serialized)
struct FunctionCallEvaluationTests {
    static let weather = FunctionCallCase.ToolDefinition(
        name: "get_weather", description: "Weather for a city",
        parameters: ["type": "object", "properties": ["city": ["type": "string"]], "required": ["city"]])
    static let weatherCase = FunctionCallCase(
        id: "lyon", question: "Weather in Lyon?", tools: [weather],
        calls: [.init(name: "get_weather", arguments: ["city": .init(values: ["Lyon"])])])

    static func call(_ city: String) -> String {
        "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"\(city)\"}}\n</tool_call>"
    }

    /// A scripted model, so each measure has a known value: a right single call, a wrong one
    /// followed by a second call, and a refused schema, which is counted and not run.
    @Test func scoresScriptedCallsAndCountsARefusedSchema() async throws {
        var wrong = Self.weatherCase
        wrong.id = "lyon-wrong"
        var refused = Self.weatherCase
        refused.id = "refused"
        refused.tools = [.init(name: "get_weather", description: "d", parameters: ["type": "object", "properties": ["city": ["not": [:]]]])]
        let model = ScriptedLanguageModel([Self.call("Lyon"), "It is sunny.", Self.call("Paris") + "\n" + Self.call("Lyon"), "Sunny."])
        let report = await FunctionCallEvaluation(model: model).run([Self.weatherCase, wrong, refused])

        #expect(report.results.map(\.caseID) == ["lyon", "lyon-wrong", "refused"])
        let right = report.results[0], second = report.results[1], notRun = report.results[2]
        #expect(right.rightCall && right.exactlyOneCall && right.validCalls == 1 && right.mismatch == nil)
        #expect(!second.rightCall && second.attemptedCalls == 2 && second.calledFunctions == ["get_weather", "get_weather"])
        #expect(second.mismatch == #"city = "Paris" is not an acceptable value"#)
        #expect(!notRun.schemasConverted && notRun.attemptedCalls == 0 && notRun.schemaError?.hasPrefix("get_weather: ") == true)
        #expect(report.schemasConverted == 2 && report.rightCalls == 1 && report.rightSingleCalls == 1)
        #expect(report.validCalls == 3 && report.attemptedCalls == 3 && report.singleCallCases == 1)
        #expect(report.medianCalls == 1.5)
        let table = report.table()
        #expect(table.contains("schemas converted: 2 of 3"))
        #expect(table.contains("AST accuracy (first call right): 1 of 3 (33.3%)"))
    }

    /// Tokens are the call round's alone: the answer round the session runs after the canned
    /// result is not counted. The scripted model generates one token per four characters and
    /// counts a prompt the same way, so both rounds' figures are known and differ.
    @Test func measuresTheCallRoundOnly() async throws {
        let call = Self.call("Lyon"), answer = "It is sunny in Lyon today, with a light wind from the west."
        let model = ScriptedLanguageModel([call, answer])
        let result = await FunctionCallEvaluation(model: model).run(Self.weatherCase)

        try #require(model.prompts.count == 2, "the answer round ran")
        #expect(result.error == nil && result.rightCall)
        #expect(result.tokens.generated == (call.count + 3) / 4)
        #expect(result.tokens.prompt == (model.prompts[0].count + 3) / 4)
        #expect(result.latency.total > 0)
        #expect(FunctionCallReport(results: [result]).table().contains("the call round only"))
    }

    /// Two shipped cases with the default model, greedy. Only what Lantern guarantees is
    /// checked: every call made is valid against its schema (the grammar writes it), the run
    /// ends with a result per case, and the report's counts add up. Whether the model picks the
    /// right call is what the evaluation measures, and it differs between CPUs.
    @Test func runsShippedCasesWithTheDefaultModel() async throws {
        let model = try LocalModel(contentsOf: TestModel.url)
        let all = try FunctionCallCaseReader().cases(contentsOf: SampleData.functionCalls)
        let cases = all.filter { ["pick-weather", "nested-ship", "exp-coulomb"].contains($0.id) }
        try #require(cases.count == 3)
        let report = await FunctionCallEvaluation(model: model, configuration: .init(maximumResponseTokens: 160)).run(cases)

        #expect(report.results.map(\.caseID) == cases.map(\.id))
        #expect(report.schemasConverted == cases.count)
        for result in report.results {
            #expect(result.error == nil || result.error?.isEmpty == false, "\(result.caseID)")
            // tool calling is required: the first round is a call attempt
            #expect(result.attemptedCalls >= 1, "\(result.caseID): no call")
            // every call that parsed is valid against its schema (the grammar writes it); only a
            // call the token limit cut off can fail to parse, and it counts as attempted, not valid
            #expect(result.validCalls == result.calledFunctions.count, "\(result.caseID): \(result.validCalls) of \(result.calledFunctions) valid")
            #expect(result.attemptedCalls >= result.calledFunctions.count, "\(result.caseID)")
            #expect(result.rightCall == (result.mismatch == nil), "\(result.caseID)")
            if result.error == nil { #expect(result.tokens.generated > 0, "\(result.caseID)") }
        }
        #expect(report.validCalls == report.results.map(\.validCalls).reduce(0, +))
        #expect(report.rightSingleCalls <= report.rightCalls && report.rightCalls <= report.cases)
        #expect(report.medianCalls != nil && report.medianGeneratedTokens != nil && report.medianLatency != nil)
    }
}
