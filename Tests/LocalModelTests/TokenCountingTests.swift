import Foundation
import Testing
import LocalModel
import TokenBudget
import TestModelSupport

/// TokenBudget counting through the real vocabulary, and the session enforcing it.
@Suite("Token counting with the default model's vocabulary", .serialized)
struct TokenCountingTests {
    @Test func budgetSectionsCountWhatLlamaTokenizeCounts() throws {
        let model = try LocalModel.vocabularyOnly(contentsOf: TestModel.url)
        let tokenizer = model.tokenizer
        let request = BudgetRequest(
            instructions: "You answer questions about hiking trails.",
            tools: [.init(name: "spotlight_search", description: "Searches the trails notebook.",
                          schema: #"{"type": "object", "properties": {"query": {"type": "string"}}}"#)],
            transcript: [.init(id: "p1", kind: .prompt, text: "Which trails are in Utah?"),
                         .init(id: "r1", kind: .response, text: "Two: Delicate Arch and Angels Landing.")],
            prompt: "And in Colorado? Ünïcode 🙂",
            reservedAnswerTokens: 100)
        let report = try BudgetReport(for: request, in: .k4, counter: tokenizer)
        func llamaCount(_ text: String) throws -> Int { try tokenizer.tokenize(text, parseSpecial: false).count }
        #expect(report.tokens(of: .instructions) == (try llamaCount(request.instructions)))
        #expect(report.tokens(of: .prompt) == (try llamaCount(request.prompt)))
        #expect(report.tokens(of: .toolSchema) == (try llamaCount(request.tools[0].schema)))
        #expect(report.tokens(of: .transcriptEntry) == (try llamaCount("Which trails are in Utah?")) + (try llamaCount("Two: Delicate Arch and Angels Landing.")))
        #expect(report.totalTokens == report.sections.map(\.tokens).reduce(0, +))
        #expect(report.remainingTokens == 4096 - report.totalTokens)
    }

    @Test func aSessionsReportCoversItsWholePrompt() async throws {
        let model = try TestModel.shared()
        let session = LanguageModelSession(model: model, tools: [RealModelSessionTests.LockerCodeTool()],
                                           instructions: "You help hikers.", contextWindow: .k4)
        let report = try session.budgetReport(for: "What is the locker code at Mesa Rim?", options: .init(maximumResponseTokens: 64))
        // everything but the reserved answer is the rendered prompt, counted as llama.cpp tokenizes it
        let rendered = ChatTemplate(family: .chatml).render([
            ChatMessage(.system, session.systemPrompt),
            ChatMessage(.user, "What is the locker code at Mesa Rim?"),
        ])
        let promptTokens = try model.tokenizer.tokenize(rendered, parseSpecial: true).count
        #expect(report.totalTokens - 64 == promptTokens)
        #expect(report.sections.contains { $0.label.contains("locker_code") })
    }
}

