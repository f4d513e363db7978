import Foundation
import Testing
import LocalModel
import TestModelSupport

/// The text a grammar forces at the start of a required call is decoded with the prompt, and
/// the output is the same kind of call as without it; a prefix the grammar refuses is not forced.
@Suite("A required call's forced opening, with the real default model", .serialized)
struct ForcedPrefixTests {
    static let arguments: GenerationSchema = .object([.property("trail", .string(maxLength: 30))])
    static let prompt = ChatTemplate(family: .chatml).render([
        ChatMessage(.system, HermesToolLayout().systemText(instructions: "You look up locker codes.", tools: [
            ToolDefinition(name: "locker_code", description: "Returns a trail's locker code.", parameters: arguments.jsonSchema),
        ])),
        ChatMessage(.user, "What is the locker code at Cedar Falls?"),
    ])

    func generate(forcing prefix: String) async throws -> (String, GenerationSummary) {
        let model = try TestModel.shared()
        let grammar = try GrammarCompiler().toolCallGrammar(for: [.init(name: "locker_code", arguments: Self.arguments)], maximumCalls: 1)
        let parameters = GenerationParameters(maximumTokens: 96, grammar: GrammarConstraint(gbnf: grammar.gbnf, root: grammar.root),
                                              forcedPrefix: prefix)
        let (text, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(prompt: Self.prompt, parameters: parameters))
        return (text, try #require(summary))
    }

    @Test func theForcedOpeningIsDecodedWithThePromptAndTheCallIsComplete() async throws {
        let prefix = ToolCallSyntax.hermes.forcedPrefix(toolNames: ["locker_code"])
        let (text, summary) = try await generate(forcing: prefix)
        let tokens = try TestModel.shared().tokenizer.tokenize(prefix, parseSpecial: true)
        // all but the last token, which the model writes itself
        #expect(summary.forcedTokens == tokens.count - 1 && summary.forcedTokens > 0, "\(summary)")
        #expect(summary.generatedTokens > summary.forcedTokens)
        #expect(text.hasPrefix(prefix), "\(text)")
        let calls = ToolCallSyntax.hermes.parseCalls(in: text)
        #expect(calls.count == 1)
        guard case .call(let name, let arguments) = calls.first else { Issue.record("not a call: \(text)"); return }
        #expect(name == "locker_code")
        #expect(throws: Never.self) { try Self.arguments.validate(arguments) }
    }

    @Test func aPrefixTheGrammarRefusesIsGeneratedNormally() async throws {
        let (text, summary) = try await generate(forcing: "<tool_call>\n{\"name\": \"no_such_tool\"")
        #expect(summary.forcedTokens == 0)
        #expect(!text.contains("no_such_tool"), "\(text)")
        #expect(ToolCallSyntax.hermes.parseCalls(in: text).count == 1, "\(text)")
    }
}
