import Testing
import LocalModel

/// A tool's typed results travel in the transcript entry of its call, beside the text the model
/// reads, so an app reads them back from the call's own output.
@Suite("Structured tool outputs with a scripted model")
struct StructuredToolOutputTests {
    struct Sum: Sendable, Hashable, PromptRepresentable {
        var a: Int
        var b: Int
        var promptRepresentation: String { "<tool_call>\(a + b)" }
    }

    /// Returns a typed value: the session records its text and the value itself.
    struct TypedAddTool: Tool {
        typealias Arguments = SessionLoopTests.AddTool.Arguments
        let name = "add"
        let description = "Adds two integers."
        func call(arguments: Arguments) async throws -> Sum { Sum(a: arguments.a, b: arguments.b) }
    }

    /// Returns plain text to direct callers and the operands beside it to the session.
    struct ExplainedAddTool: Tool {
        typealias Arguments = SessionLoopTests.AddTool.Arguments
        let name = "add"
        let description = "Adds two integers."
        func call(arguments: Arguments) async throws -> String { try await result(for: arguments).text }
        func result(for arguments: Arguments) async throws -> ToolResult {
            ToolResult(text: String(arguments.a + arguments.b), structuredContent: [arguments.a, arguments.b])
        }
    }

    static func outputs(_ entries: some Sequence<Transcript.Entry>) -> [Transcript.ToolOutput] {
        entries.compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
    }

    @Test func aTypedOutputIsRecordedBesideItsText() async throws {
        let model = ScriptedLanguageModel([SessionLoopTests.call("add", #"{"a": 1, "b": 2}"#), "Three."])
        let session = LanguageModelSession(model: model, tools: [TypedAddTool()])
        let response = try await session.respond(to: "1+2?")
        let output = try #require(Self.outputs(response.transcriptEntries).first)
        #expect(output.structuredContents(as: Sum.self) == [Sum(a: 1, b: 2)])
        #expect(output.structuredContents(as: String.self).isEmpty)
        guard output.segments.count == 2, case .text(let text) = output.segments[0], case .structure(let structure) = output.segments[1] else {
            Issue.record("unexpected segments \(output.segments)")
            return
        }
        // the model reads the text, neutralized; the value is as the tool returned it
        #expect(text.content == output.text && !output.text.contains("<tool_call>") && output.text.hasSuffix("3"))
        #expect(structure.source == "Sum" && structure.content(as: Sum.self) == Sum(a: 1, b: 2))
        #expect(Set(output.segments.map(\.id)).count == 2 && output.segments.allSatisfy { $0.id.hasPrefix(output.id) })
        #expect(session.transcript.structuredContents(as: Sum.self) == [Sum(a: 1, b: 2)])
        #expect(model.prompts.last?.contains("Sum(") == false, "the model never reads the value")
    }

    @Test func aToolCanReturnTextAndValuesOfItsOwn() async throws {
        let turn = SessionLoopTests.call("add", #"{"a": 1, "b": 2}"#) + "\n" + SessionLoopTests.call("add", #"{"a": 30, "b": 4}"#)
        let model = ScriptedLanguageModel([turn, "3 and 34."])
        let session = LanguageModelSession(model: model, tools: [ExplainedAddTool()])
        let response = try await session.respond(to: "1+2 and 30+4?")
        let outputs = Self.outputs(response.transcriptEntries)
        #expect(outputs.map(\.text) == ["3", "34"])
        #expect(outputs.map { $0.structuredContents(as: Int.self) } == [[1, 2], [30, 4]])
        #expect(response.transcriptEntries.structuredContents(as: Int.self) == [1, 2, 30, 4])
    }

    @Test func plainTextErrorsAndRepeatsCarryNoStructure() async throws {
        let call = SessionLoopTests.call("add", #"{"a": 1, "b": 2}"#)
        let model = ScriptedLanguageModel([call + "\n" + call + "\n" + SessionLoopTests.call("add", #"{"a": 5000, "b": 1}"#), "Three."])
        let session = LanguageModelSession(model: model, tools: [TypedAddTool()])
        let response = try await session.respond(to: "1+2?")
        let outputs = Self.outputs(response.transcriptEntries)
        #expect(outputs.count == 2, "the round stops at the repeat")
        #expect(outputs.map { $0.structuredContents(as: Sum.self).count } == [1, 0])
        #expect(outputs[1].repeatedCallID == outputs[0].id, "a repeat points at the output that stands")

        let plain = ScriptedLanguageModel([SessionLoopTests.call("add", #"{"a": 5000, "b": 1}"#) + "\n" + call, "ok"])
        let outputsOfPlain = Self.outputs(try await LanguageModelSession(model: plain, tools: [SessionLoopTests.AddTool()]).respond(to: "add").transcriptEntries)
        #expect(outputsOfPlain.map(\.isError) == [true, false])
        #expect(outputsOfPlain.allSatisfy { $0.segments.count == 1 }, "an error and a String output are text alone")
    }
}
