import Foundation
import Testing
import LocalModel
import TestModelSupport

/// `GenerationParameters.requiresText`: the output may not end before it holds text. A grammar
/// that admits the empty output or one sentence leaves the model both choices; with the
/// requirement only the sentence is left, whatever the model would pick.
@Suite("An answer that may not be empty, with the real default model", .serialized)
struct RequiredTextTests {
    static let prompt = ChatTemplate(family: .chatml).render([
        ChatMessage(.system, "You reply with nothing at all when the user asks for nothing."),
        ChatMessage(.user, "Say nothing."),
    ])
    static let sentence = "Noted."

    func generate(requiresText: Bool) async throws -> (String, GenerationSummary) {
        let grammar = GrammarConstraint(gbnf: "root ::= (\"\(Self.sentence)\")?", root: "root")
        let parameters = GenerationParameters(maximumTokens: 16, grammar: grammar, requiresText: requiresText)
        let (text, summary) = try await TestModel.collect(try TestModel.shared().makeContext(window: .k4).generate(prompt: Self.prompt, parameters: parameters))
        return (text, try #require(summary))
    }

    @Test func endOfGenerationWaitsForText() async throws {
        let (text, summary) = try await generate(requiresText: true)
        #expect(text == Self.sentence, "\(text)")
        #expect(summary.stopReason == .endOfGeneration, "\(summary)")
    }

    @Test func withoutTheRequirementTheOutputIsOneOfTheGrammarsTwo() async throws {
        let (text, _) = try await generate(requiresText: false)
        #expect(text.isEmpty || text == Self.sentence, "\(text)")
    }
}
