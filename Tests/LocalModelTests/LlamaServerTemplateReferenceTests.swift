import Foundation
import Testing
import LocalModel
import TestModelSupport

/// llama-server renders a round with a tool through each family's real template, in the
/// family's markup — or, where the real template cannot, says why.
@Suite("llama-server's rendering of a tool round")
struct LlamaServerTemplateReferenceTests {
    static let tools: [JSONValue] = [[
        "type": "function",
        "function": [
            "name": "trail_search", "description": "Searches the trail notes.",
            "parameters": ["type": "object", "properties": ["query": ["type": "string"]], "required": ["query"]],
        ],
    ]]

    /// A whole tool round: the call, its result, the answer, and the next question. Mistral's
    /// templates number the user/assistant turns without the tool messages, so the answer after
    /// the result is what keeps them alternating. The call id has 9 characters, the only length
    /// Mistral v3's template accepts.
    static let toolRound: [JSONValue] = [
        ["role": "system", "content": "You answer from the notes."],
        ["role": "user", "content": "Which trails have water?"],
        ["role": "assistant", "content": nil, "tool_calls": [[
            "id": "call12345", "type": "function",
            "function": ["name": "trail_search", "arguments": #"{"query":"lake trail"}"#],
        ]]],
        ["role": "tool", "tool_call_id": "call12345", "content": "Maple Pass: a lake at mile 3."],
        ["role": "assistant", "content": "Maple Pass has a lake."],
        ["role": "user", "content": "And in Oregon?"],
    ]

    /// What each family's template writes around the call and the result.
    static func markup(_ family: TemplateFamily) -> [String] {
        switch family {
        case .llama3: ["<|start_header_id|>ipython<|end_header_id|>", #"{"name": "trail_search", "parameters": {"query": "lake trail"}}"#]
        case .mistralV3, .mistralV7: ["[AVAILABLE_TOOLS]", "[TOOL_CALLS]", "[TOOL_RESULTS]", #""id": "call12345""#]
        case .deepseekV3: ["<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>trail_search<｜tool▁sep｜>", "<｜tool▁output▁begin｜>"]
        case .qwen3, .chatml: ["<tools>", "<tool_call>\n{\"name\": \"trail_search\"", "<tool_response>\nMaple Pass"]
        case .granite: ["<|start_of_role|>available_tools<|end_of_role|>"]
        case .phi4Mini, .gemma3: []
        }
    }

    /// Families whose real template writes the tool's name and the call's arguments.
    static let rendersCalls: [TemplateFamily] = [.llama3, .mistralV3, .mistralV7, .deepseekV3, .qwen3, .chatml]

    @Test(arguments: TemplateFamily.allCases.filter { $0 != .gemma3 })
    func aToolRoundRendersInTheFamilysMarkup(family: TemplateFamily) async throws {
        let server = try await LlamaServerTemplateReference.shared(family)
        let prompt = try await server.prompt(messages: Self.toolRound, tools: Self.tools, templateArguments: ["date_string": "26 Jul 2024"])
        #expect(prompt.contains("Maple Pass: a lake at mile 3."), "\(prompt)")
        #expect(prompt.contains("And in Oregon?"), "\(prompt)")
        for text in Self.markup(family) { #expect(prompt.contains(text), "\(family): \(text) in \(prompt)") }
        if Self.rendersCalls.contains(family) {
            #expect(prompt.contains("trail_search") && prompt.contains("lake trail"), "\(prompt)")
        } else {
            // Phi-4-mini's and Granite 3.3's templates write only an assistant message's content
            #expect(!prompt.contains("lake trail"), "\(prompt)")
        }
    }

    @Test func gemmasTemplateRefusesAToolMessage() async throws {
        let server = try await LlamaServerTemplateReference.shared(.gemma3)
        let refusal = await #expect(throws: LlamaServerTemplateReferenceError.self) {
            try await server.prompt(messages: Self.toolRound, tools: Self.tools)
        }
        guard case .templateRejected(_, let status, let message) = refusal else {
            Issue.record("not a refusal by the template: \(String(describing: refusal))")
            return
        }
        #expect(status == 400)
        #expect(message.contains("Conversation roles must alternate"), "\(message)")
        // the layout Lantern gives Gemma: the result in the next user turn
        let asUserTurn: [JSONValue] = [
            ["role": "user", "content": "Which trails have water?"],
            ["role": "assistant", "content": "Let me look."],
            ["role": "user", "content": "<tool_response>\nMaple Pass: a lake at mile 3.\n</tool_response>"],
        ]
        let prompt = try await server.prompt(messages: asUserTurn)
        #expect(prompt.hasSuffix("<start_of_turn>user\n<tool_response>\nMaple Pass: a lake at mile 3.\n</tool_response><end_of_turn>\n<start_of_turn>model\n"), "\(prompt)")
    }

    @Test(arguments: [TemplateFamily.llama3, .chatml])
    func theGenerationPromptIsOnlyWrittenWhenAskedFor(family: TemplateFamily) async throws {
        let server = try await LlamaServerTemplateReference.shared(family)
        let open = try await server.prompt(messages: Self.toolRound, tools: Self.tools, addGenerationPrompt: true)
        let closed = try await server.prompt(messages: Self.toolRound, tools: Self.tools, addGenerationPrompt: false)
        let opening = family == .llama3 ? "<|start_header_id|>assistant<|end_header_id|>\n\n" : "<|im_start|>assistant\n"
        #expect(open == closed + opening)
    }

    @Test func llamasTemplateTakesTheDateItIsGiven() async throws {
        let server = try await LlamaServerTemplateReference.shared(.llama3)
        let prompt = try await server.prompt(messages: Self.toolRound, tools: Self.tools, templateArguments: ["date_string": "26 Jul 2024"])
        #expect(prompt.contains("Today Date: 26 Jul 2024\n"), "\(prompt)")
    }

    @Test func aServerThatCannotLoadItsModelSaysWhatItPrinted() async throws {
        let folder = try TestModel.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("no-tensors.gguf")
        try GGUFWriter().write(to: broken)
        let error = await #expect(throws: LlamaServerTemplateReferenceError.self) {
            try await LlamaServerTemplateReference(family: .chatml, model: broken)
        }
        guard case .serverDidNotStart(_, let reason, let log) = error else {
            Issue.record("not a failed start: \(String(describing: error))")
            return
        }
        #expect(reason.contains("exited"), "\(reason)")
        #expect(log.contains(broken.path), "\(log)")
    }
}
