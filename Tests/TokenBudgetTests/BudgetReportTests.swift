import Foundation
import Testing
@testable import TokenBudget

@Suite struct BudgetReportTests {
    let counter = WordCounter()

    @Test func sectionsComeInPromptOrderWithTheirCounts() throws {
        let report = try BudgetReport(for: Fixture.request(turns: 1), in: .k4, counter: counter)
        let rows = report.sections.map { "\($0.kind.rawValue):\($0.name ?? "-"):\($0.tokens)" }
        #expect(rows == [
            "instructions:-:\(Fixture.instructions)",
            "toolDescription:spotlight_search:\(Fixture.searchDescription)",
            "toolSchema:spotlight_search:\(Fixture.searchSchema)",
            "toolDescription:fetch:\(Fixture.fetchDescription)",
            "toolSchema:fetch:\(Fixture.fetchSchema)",
            "templateOverhead:-:\(Fixture.overhead)",
            "transcriptEntry:p1:\(Fixture.turnPrompt)",
            "transcriptEntry:c1:\(Fixture.toolCalls)",
            "transcriptEntry:o1:\(Fixture.toolOutput)",
            "transcriptEntry:r1:\(Fixture.response)",
            "prompt:-:\(Fixture.prompt)",
            "reservedAnswer:-:\(Fixture.reserve)",
        ])
        #expect(report.sections.compactMap(\.entryKind) == [.prompt, .toolCalls, .toolOutput, .response])
        #expect(report.tokens(of: .toolSchema) == Fixture.searchSchema + Fixture.fetchSchema)
    }

    @Test(arguments: [ContextWindow.k4, .k8, .k32, 1000, 600])
    func reportAddsUp(window: ContextWindow) throws {
        let report = try BudgetReport(for: Fixture.request(), in: window, counter: counter)
        let sum = report.sections.reduce(0) { $0 + $1.tokens }
        #expect(report.totalTokens == sum)
        #expect(report.totalTokens == Fixture.fixed + 3 * Fixture.turn)
        #expect(report.remainingTokens == window.tokens - sum)
        #expect(report.fits == (sum <= window.tokens))
        let shares = report.sections.reduce(0.0) { $0 + $1.share }
        #expect(abs(shares - report.totalShare) < 1e-9)
        #expect(abs(report.totalShare - Double(sum) / Double(window.tokens)) < 1e-9)
        for section in report.sections {
            #expect(abs(section.share - Double(section.tokens) / Double(window.tokens)) < 1e-12)
        }
    }

    @Test func emptyTemplateIsCountedWithSpecialTokensParsed() throws {
        var request = Fixture.request(turns: 0)
        request.templateOverhead = .emptyTemplate("<|im_start|> system\n<|im_end|>\n<|im_start|> user\n<|im_end|>")
        let report = try BudgetReport(for: request, in: .k4, counter: counter)
        // Four markers at one token each plus the two role words; as plain text they would cost 14.
        #expect(report.tokens(of: .templateOverhead) == 6)
    }

    @Test func renderedPromptOverheadIsTheRestAfterTheParts() throws {
        let request = Fixture.request(turns: 1)
        let markup = ["<|im_start|>system", "<|im_end|>", "<|im_start|>user", "<|im_end|>",
                      "<|im_start|>assistant", "<|im_end|>", "<|im_start|>user", "<|im_end|>"]
        let parts = [request.instructions] + request.tools.flatMap { [$0.description, $0.schema] }
            + request.transcript.map(\.text) + [request.prompt]
        var rendered = request
        rendered.templateOverhead = .renderedPrompt((markup + parts).joined(separator: "\n"))
        let markupTokens = try markup.reduce(0) { $0 + (try counter.countTokens(in: $1, parseSpecial: true)) }
        #expect(try BudgetReport(for: rendered, in: .k4, counter: counter).tokens(of: .templateOverhead)
            == markupTokens)

        rendered.templateOverhead = .renderedPrompt("too short to hold the parts")
        #expect(try BudgetReport(for: rendered, in: .k4, counter: counter).tokens(of: .templateOverhead) == 0)
    }

    @Test func invalidInputsThrowTypedErrors() {
        #expect(throws: TokenBudgetError.invalidContextWindow(0)) {
            try BudgetReport(for: Fixture.request(), in: 0, counter: counter)
        }
        var request = Fixture.request()
        request.reservedAnswerTokens = -5
        #expect(throws: TokenBudgetError.negativeTokenCount(section: "reserved answer", tokens: -5)) {
            try BudgetReport(for: request, in: .k4, counter: counter)
        }
        request = Fixture.request()
        request.templateOverhead = .tokens(-1)
        #expect(throws: TokenBudgetError.negativeTokenCount(section: "chat template overhead", tokens: -1)) {
            try BudgetReport(for: request, in: .k4, counter: counter)
        }
        #expect(throws: TokenBudgetError.negativeTokenCount(section: "instructions", tokens: -1)) {
            try BudgetReport(for: Fixture.request(), in: .k4, counter: NegativeCounter())
        }
    }

    @Test func enforcePassesWhenTheRequestFits() throws {
        let report = try BudgetReport(for: Fixture.request(), in: .k4, counter: counter)
        #expect(report.fits)
        try report.enforce()
    }

    @Test func overBudgetNamesTheWindowTheTotalAndTheLargestSections() throws {
        var request = Fixture.request(turns: 1)
        request.tools[0].schema = words(5100, "field")
        let report = try BudgetReport(for: request, in: .k4, counter: counter)
        let total = Fixture.fixed - Fixture.searchSchema + 5100 + Fixture.turn
        #expect(total == 5521)
        #expect(report.totalTokens == total)
        #expect(!report.fits)

        let error = try #require(throws: TokenBudgetError.self) { try report.enforce() }
        guard case .contextWindowExceeded(let overflow) = error else {
            Issue.record("expected contextWindowExceeded, got \(error)")
            return
        }
        #expect(overflow.window == .k4)
        #expect(overflow.totalTokens == total)
        #expect(overflow.excessTokens == total - 4096)
        #expect(overflow.largestSections.map(\.label)
            == ["spotlight_search tool's schema", "transcript's tool output o1", "reserved answer"])

        let message = error.description
        #expect(message.hasPrefix("request needs 5,521 tokens"))
        #expect(message.contains("4K (4,096)"))
        #expect(message.contains("the spotlight_search tool's schema alone is 5,100 tokens (125% of the window)"))
        #expect(message.contains("a smaller guide or fewer tools"))
        #expect(message.hasSuffix("or a larger window"))
        #expect(!message.contains("answer reserve"), "the reserve takes 2%: no advice about it")
        #expect(error.localizedDescription == message)
    }

    @Test func overBudgetWithNoSingleCulpritListsTheLargestParts() throws {
        let report = try BudgetReport(for: Fixture.request(), in: 900, counter: counter)
        let error = try #require(throws: TokenBudgetError.self) { try report.enforce() }
        #expect(error.description.contains(
            "the largest parts are the transcript's tool output o1 (200 tokens, 22%)"))
        #expect(!error.description.contains("alone"))
        #expect(error.description.contains("the context window is 900, 107 over"))
    }

    @Test func largestSectionsBreakTiesByPromptOrder() throws {
        let report = try BudgetReport(for: Fixture.request(), in: .k4, counter: counter)
        #expect(report.largestSections(4).map(\.label) == [
            "transcript's tool output o1", "transcript's tool output o2",
            "transcript's tool output o3", "spotlight_search tool's schema",
        ])
        #expect(report.largestSections(0).isEmpty)
    }

    @Test func tableHasAnAlignedRowPerSectionAndTheTotals() throws {
        let report = try BudgetReport(for: Fixture.request(), in: .k4, counter: counter)
        let lines = report.table.split(separator: "\n").map(String.init)
        #expect(lines.first == "Token budget for a 4K (4,096) context window")
        for section in report.sections {
            let line = try #require(lines.first { $0.hasPrefix(section.label + " ") })
            #expect(line.split(separator: " ").contains(Substring(String(section.tokens))))
        }
        let sectionLines = lines.filter { line in report.sections.contains { line.hasPrefix($0.label + " ") } }
        #expect(sectionLines.count == report.sections.count)
        // The share column is right-aligned: every row ends at the same column.
        #expect(Set(sectionLines.map(\.count)).count == 1)
        let totalLine = try #require(lines.first { $0.hasPrefix("total ") })
        #expect(totalLine.contains("1,007"))
        #expect(lines.contains { $0.hasPrefix("remaining ") && $0.hasSuffix("3,089") })
        #expect(lines.last == "fits, with 3,089 tokens to spare")
        #expect(report.description == report.table)
    }

    @Test func reportRoundTripsThroughJSON() throws {
        let report = try BudgetReport(for: Fixture.request(), in: .k8, counter: counter)
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(BudgetReport.self, from: data) == report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["window"] as? Int == 8192)
        #expect(object["totalTokens"] as? Int == report.totalTokens)
        #expect((object["sections"] as? [Any])?.count == report.sections.count)
    }

    @Test func contextWindowParsesPresetsAndCounts() {
        #expect(ContextWindow(parsing: "4k") == .k4)
        #expect(ContextWindow(parsing: "32K") == .k32)
        #expect(ContextWindow(parsing: "6000")?.tokens == 6000)
        #expect(ContextWindow(parsing: "0") == nil)
        #expect(ContextWindow.k8.description == "8K")
        #expect(ContextWindow(tokens: 6000).description == "6000")
    }
}
