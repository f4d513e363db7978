import Foundation
import Testing

/// The answer a person reads: `ask` prints each citation marker as the number of its source in
/// the "Sources" list after the answer, and `--json` keeps the ids. Run as a process with the
/// default model in quote mode, where the grammar makes every marker name a shown source; what
/// the model quotes and cites is its choice, so only the agreement of markers, list and report
/// is checked.
@Suite(.serialized) struct AskCitationNumberTests {
    static let question = ["--model", AskProcess.defaultModel.path, "--answer", "quote", "--max-tokens", "160",
                           "Which trails in California have water features?"]

    /// The printed answer (between the trace and "Sources:") and the numbers the list gives its cited sources.
    static func printedAnswer(_ stdout: String) -> (answer: String, citedNumbers: [Int], listedIDs: [String]) {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sourcesStart = lines.lastIndex(of: "Sources:") ?? lines.endIndex
        let answerStart = (lines[..<sourcesStart].lastIndex { $0.hasPrefix("· ") }).map { $0 + 1 } ?? 0
        let answer = lines[answerStart..<sourcesStart].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        var numbers: [Int] = []
        var ids: [String] = []
        for line in lines[sourcesStart...].dropFirst() {
            guard let row = line.firstMatch(of: /^  (?:\[(\d+)\])?\s+(?:read|seen)  (\S+)/) else { continue }
            if let number = row.1.flatMap({ Int($0) }) { numbers.append(number) }
            ids.append(String(row.2))
        }
        return (answer, numbers, ids)
    }

    static func markers(_ text: String) -> [String] {
        text.matches(of: /\[([^\[\]\n]*)\]/).map { String($0.1) }
    }

    @Test func printedMarkersAreTheListedNumbersAndJSONKeepsTheIDs() throws {
        let printed = try AskProcess().run(Self.question)
        if AskModelTests.endedAtTheRoundLimit(printed) { return }
        #expect(printed.status == 0, "\(printed.stderr)")
        let (answer, numbers, listed) = Self.printedAnswer(printed.stdout)
        #expect(numbers == Array(stride(from: 1, through: numbers.count, by: 1)), "\(printed.stdout)")
        let markers = Self.markers(answer)
        for marker in markers {
            #expect(Int(marker).map(numbers.contains) == true, "[\(marker)] is a listed source's number in \(printed.stdout)")
        }
        for number in numbers { #expect(markers.contains(String(number)), "[\(number)] is in \(answer)") }
        for id in listed { #expect(!answer.contains("[\(id)]"), "no raw id marker in \(answer)") }

        let reported = try AskProcess().run(["--json"] + Self.question)
        if AskModelTests.endedAtTheRoundLimit(reported) { return }
        #expect(reported.status == 0, "\(reported.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reported.stdout.utf8)) as? [String: Any], "\(reported.stdout)")
        let jsonAnswer = try #require(object["answer"] as? String)
        let sources = try #require(object["sources"] as? [[String: Any]])
        var numberByID: [String: Int] = [:]
        for source in sources {
            if let id = source["id"] as? String, let number = source["citation"] as? Int { numberByID[id] = number }
        }
        for marker in Self.markers(jsonAnswer) { #expect(numberByID[marker] != nil, "[\(marker)] is a cited source's id in \(jsonAnswer)") }
        // The same question, model and machine give the same greedy answer: printed, it is the
        // report's answer with each id's marker as the number the report gives that source.
        var rendered = jsonAnswer
        for (id, number) in numberByID { rendered = rendered.replacingOccurrences(of: "[\(id)]", with: "[\(number)]") }
        #expect(rendered.trimmingCharacters(in: .whitespacesAndNewlines) == answer)
    }
}
