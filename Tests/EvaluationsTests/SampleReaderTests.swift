import Foundation
import Testing
import Evaluations

@Suite("Samples JSON Lines")
struct SampleReaderTests {
    @Test func readsTheShippedSamples() throws {
        let samples = try SampleReader().samples(contentsOf: SampleData.trailsSamples)
        let text = try String(contentsOf: SampleData.trailsSamples, encoding: .utf8)
        #expect(samples.count == text.split(separator: "\n").count)
        #expect(Set(samples.map(\.id)).count == samples.count)
        let priya = try #require(samples.first { $0.id == "with-priya" })
        #expect(Set(priya.expectedIdentifiers) == ["trail-001", "trail-014"])
        let headlamp = try #require(samples.first { $0.id == "headlamp-batteries" })
        #expect(headlamp.trajectory?.order == .ordered)
        #expect(headlamp.trajectory?.expected.map(\.tool) == ["spotlight_search", "fetch_item"])
    }

    @Test func readsOptionalFieldsAndIgnoresUnknownKeys() throws {
        let line = #"{"id": "a", "prompt": "Hello?", "expectedIdentifiers": ["x"], "source": "elsewhere", "trajectory": {"disallowed": ["fetch_item"]}}"#
        let sample = try SampleReader().sample(fromLine: line)
        #expect(sample.expectedFacts.isEmpty)
        #expect(sample.trajectory?.disallowed == ["fetch_item"])
        #expect(sample.trajectory?.expected.isEmpty == true)
    }

    @Test func errorsNameTheFileLineAndField() {
        let text = """
        {"id": "a", "prompt": "p", "expectedIdentifiers": []}

        {"id": "b", "prompt": "p"}
        """
        #expect {
            try SampleReader().samples(fromText: text, path: "set.jsonl")
        } throws: { error in
            guard let error = error as? SampleReaderError else { return false }
            return error.line == 3 && error.problem == .missingField("expectedIdentifiers")
                && error.description.hasPrefix("set.jsonl line 3:")
        }
    }

    @Test(arguments: [
        (#"{"id": "a", "prompt": "p", "expectedIdentifiers": "x"}"#, "expectedIdentifiers"),
        (#"{"id": "a", "prompt": "p", "expectedIdentifiers": [], "trajectory": {"ordered": [], "unordered": []}}"#, "trajectory"),
        (#"{"id": "a", "prompt": "p", "expectedIdentifiers": [], "trajectory": {"unordered": [{"arguments": ["query"]}]}}"#, "trajectory.unordered[0].tool"),
        (#"{"id": "a", "prompt": "p", "expectedIdentifiers": [], "expectedFacts": [3]}"#, "expectedFacts[0]"),
    ])
    func invalidFieldsAreNamed(line: String, field: String) {
        #expect {
            try SampleReader().sample(fromLine: line, number: 7)
        } throws: { error in
            guard let error = error as? SampleReaderError, error.line == 7 else { return false }
            switch error.problem {
            case .invalidField(let name, _), .missingField(let name): return name == field
            default: return false
            }
        }
    }

    @Test func rejectsBrokenLinesDuplicatesAndEmptyFiles() {
        let reader = SampleReader()
        #expect(throws: SampleReaderError.self) { try reader.sample(fromLine: "{\"id\": ") }
        #expect(throws: SampleReaderError.self) { try reader.sample(fromLine: "[1, 2]") }
        #expect(throws: SampleReaderError.self) { try reader.sample(fromLine: #"{"id": "", "prompt": "p", "expectedIdentifiers": []}"#) }
        let duplicate = """
        {"id": "a", "prompt": "p", "expectedIdentifiers": []}
        {"id": "a", "prompt": "q", "expectedIdentifiers": []}
        """
        #expect(throws: SampleReaderError(path: nil, line: 2, problem: .duplicateIdentifier("a", firstLine: 1))) {
            try reader.samples(fromText: duplicate)
        }
        #expect(throws: SampleReaderError(path: nil, line: 0, problem: .empty)) { try reader.samples(fromText: "\n  \n") }
        let missing = URL(fileURLWithPath: "/nonexistent/samples.jsonl")
        #expect(throws: SampleReaderError(path: missing.path, line: 0, problem: .unreadableFile(reason: "no such file"))) {
            try reader.samples(contentsOf: missing)
        }
    }

    @Test func trajectoriesRoundTripThroughJSON() throws {
        let trajectory = TrajectoryExpectation(ordered: [ToolExpectation("spotlight_search", arguments: ["query"]), ToolExpectation("fetch_item")],
                                               disallowed: ["other"])
        let decoded = try JSONDecoder().decode(TrajectoryExpectation.self, from: JSONEncoder().encode(trajectory))
        #expect(decoded == trajectory)
    }
}
