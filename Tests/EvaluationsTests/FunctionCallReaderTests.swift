import Foundation
import Testing
import Evaluations
import LocalModel

@Suite("Function-calls JSON Lines")
struct FunctionCallReaderTests {
    static let line = #"{"id": "w", "question": "Weather in Lyon?", "tools": [{"name": "get_weather", "description": "Weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}}, "required": ["city"]}}], "calls": [{"name": "get_weather", "arguments": {"city": {"values": ["Lyon", "Lyon, France"]}, "unit": {"optional": true}, "days": {"values": [1.5], "tolerance": 0.5}}}]}"#

    @Test func readsACase() throws {
        let read = try FunctionCallCaseReader().functionCallCase(fromLine: Self.line)
        #expect(read.id == "w")
        #expect(read.question == "Weather in Lyon?")
        #expect(read.tools.map(\.name) == ["get_weather"])
        #expect(read.tools[0].parameters["required"] == .array([.string("city")]))
        let call = try #require(read.calls.first)
        #expect(call.name == "get_weather")
        #expect(call.arguments["city"] == .init(values: [.string("Lyon"), .string("Lyon, France")]))
        #expect(call.arguments["unit"] == .init(values: [], optional: true))
        #expect(call.arguments["days"] == .init(values: [.double(1.5)], tolerance: 0.5))
    }

    /// Each bad line, the line number it is reported on and the problem.
    @Test(arguments: [
        (#"{"id": "a""#, FunctionCallProblem?.none),
        (#"[1, 2]"#, .invalidJSON(reason: "the line is not an object")),
        (#"{"question": "q", "tools": [], "calls": []}"#, .missingField("id")),
        (#"{"id": " ", "question": "q", "tools": [], "calls": []}"#, .emptyField("id")),
        (#"{"id": "a", "question": "q", "tools": [], "calls": []}"#, .emptyField("tools")),
        (#"{"id": "a", "question": "q", "tools": [{"name": "f", "description": "d", "parameters": []}], "calls": []}"#,
         .invalidField("tools[0].parameters", reason: "expected an object")),
        (#"{"id": "a", "question": "q", "tools": [{"name": "f", "description": "d", "parameters": {}}], "calls": [{"name": "g", "arguments": {}}]}"#,
         .unknownFunction("g", field: "calls[0].name")),
        (#"{"id": "a", "question": "q", "tools": [{"name": "f", "description": "d", "parameters": {}}], "calls": [{"name": "f", "arguments": {"x": {"values": []}}}]}"#,
         .invalidField("calls[0].arguments.x.values", reason: "list at least one acceptable value, or mark the argument \"optional\": true")),
        (#"{"id": "a", "question": "q", "tools": [{"name": "f", "description": "d", "parameters": {}}], "calls": [{"name": "f", "arguments": {"x": {"values": [1], "tolerance": -1}}}]}"#,
         .invalidField("calls[0].arguments.x.tolerance", reason: "must be a number of at least 0")),
        (#"{"id": "a", "question": "q", "tools": [{"name": "f", "description": "d", "parameters": {}}], "calls": [{"name": "f", "arguments": {"x": {"values": 1}}}]}"#,
         .invalidField("calls[0].arguments.x.values", reason: "expected a list of values")),
    ])
    func badLinesThrowTypedErrorsWithTheirLine(bad: String, problem: FunctionCallProblem?) {
        let text = Self.line + "\n\n" + bad
        #expect {
            try FunctionCallCaseReader().cases(fromText: text, path: "calls.jsonl")
        } throws: { error in
            guard let error = error as? FunctionCallReaderError, error.line == 3,
                  error.description.hasPrefix("calls.jsonl line 3: ") else { return false }
            if let problem { return error.problem == problem }
            if case .invalidJSON = error.problem { return true }
            return false
        }
    }

    @Test func duplicateIdsAndEmptyFilesAreRefused() {
        #expect(throws: FunctionCallReaderError(path: nil, line: 2, problem: .duplicateIdentifier("w", firstLine: 1))) {
            try FunctionCallCaseReader().cases(fromText: Self.line + "\n" + Self.line)
        }
        #expect(throws: FunctionCallReaderError(path: nil, line: 0, problem: .empty)) {
            try FunctionCallCaseReader().cases(fromText: "\n  \n")
        }
    }

    @Test func aMissingFileSaysSo() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).jsonl")
        #expect(throws: FunctionCallReaderError(path: url.path, line: 0, problem: .unreadableFile(reason: "no such file"))) {
            try FunctionCallCaseReader().cases(contentsOf: url)
        }
    }
}
