/// Mistral's layout of tools (Mistral 7B v0.3's template, and Mistral Small 3.1's for v7): the
/// definitions in `[AVAILABLE_TOOLS] […][/AVAILABLE_TOOLS]` right before the last user message,
/// the calls one JSON array after `[TOOL_CALLS]`, each with the nine-character `id` the
/// template requires, and each result in `[TOOL_RESULTS] {"content": …, "call_id": …}[/TOOL_RESULTS]`
/// answering the call of the same position. v7 also opens the system prompt with the
/// template's instructions for several calls.
///
/// The definitions move with the last user message, as the template has them, so a new
/// question re-reads the prompt from the previous one's definitions on. v3's template also
/// writes the system message into that last user message; with tools Lantern does too (without
/// them, plain turns are llama.cpp's, which puts it in the first).
public struct MistralToolLayout: ToolLayout {
    public let name: String
    public let thinking: ThinkingSyntax? = nil
    /// v7: the system prompt opens with the template's instructions for parallel calls, and
    /// the system message stays in its own `[SYSTEM_PROMPT]` turn.
    let isV7: Bool
    public var callSyntax: ToolCallSyntax { .mistral }
    public var resultFraming: [String] { ["[TOOL_RESULTS]", "[/TOOL_RESULTS]"] }

    /// Mistral v3's layout (7B v0.3, Nemo).
    public static let v3 = MistralToolLayout(name: "mistral-v3", isV7: false)
    /// Mistral v7's layout (Small 3.1).
    public static let v7 = MistralToolLayout(name: "mistral-v7", isV7: true)

    /// v7 with tools: the template's parallel-call instructions, then the instructions with
    /// nothing between them (the template's `"\<newline>\<newline>"` is two line
    /// continuations in a Jinja string, so nothing).
    public func systemText(instructions: String, tools: [ToolDefinition]) -> String {
        guard isV7, !tools.isEmpty else { return instructions }
        return Self.parallelCallPrompt + instructions
    }

    public func turns(_ messages: [ChatMessage], tools: [ToolDefinition]) -> [ChatTurn] {
        let lastUser = tools.isEmpty ? nil : messages.lastIndex { $0.role == .user }
        let movedSystem = isV7 || lastUser == nil ? nil : messages.first { $0.role == .system }
        var turns: [ChatTurn] = []
        var callIDs: [String] = []
        for (index, message) in messages.enumerated() {
            switch message.role {
            case .system where movedSystem != nil:
                continue
            case .user where index == lastUser:
                turns.append(ChatTurn(role: nil, content: RenderedPrompt(Self.availableTools(tools), parsesSpecialTokens: true)))
                var content = RenderedPrompt()
                if let movedSystem { content.append(movedSystem.content + "\n\n", parsesSpecialTokens: movedSystem.parsesSpecialTokens) }
                content.append(message.content, parsesSpecialTokens: message.parsesSpecialTokens)
                turns.append(ChatTurn(role: "user", content: content, parsesSpecialTokens: message.parsesSpecialTokens))
            case .assistant where message.content.contains(ToolCallSyntax.mistral.trigger):
                // the model's own call text, ids included; the results answer them in order
                callIDs = Self.callIDs(in: message.content)
                turns.append(ChatTurn(role: nil, content: RenderedPrompt(message.content + "</s>", parsesSpecialTokens: true)))
            case .tool:
                let id = callIDs.isEmpty ? String(repeating: "0", count: 9) : callIDs.removeFirst()
                turns.append(.markup("[TOOL_RESULTS] {\"content\": ", message.content, parsesSpecialTokens: message.parsesSpecialTokens,
                                     ", \"call_id\": \"\(id)\"}[/TOOL_RESULTS]"))
            default:
                turns.append(ChatTurn(role: message.role.rawValue, message))
            }
        }
        return turns
    }

    /// The ids of the calls in a `[TOOL_CALLS]` turn, in order.
    private static func callIDs(in text: String) -> [String] {
        guard let trigger = text.range(of: ToolCallSyntax.mistral.trigger),
              let open = text[trigger.upperBound...].firstIndex(of: "["),
              case .array(let calls)? = try? JSONValue.leadingValue(of: text[open...], duplicateKeys: .lastWins).value else { return [] }
        return calls.compactMap { $0["id"]?.stringValue }
    }

    /// `[AVAILABLE_TOOLS] [...][/AVAILABLE_TOOLS]` as the template writes it: each function's
    /// strings as they are, between quotes, and its other values as JSON.
    static func availableTools(_ tools: [ToolDefinition]) -> String {
        let functions = tools.map { tool -> String in
            var members = ["\"name\": \"\(tool.name)\"", "\"description\": \"\(tool.description)\""]
            if let parameters = tool.parameters { members.append("\"parameters\": " + parameters.pythonStyleJSON()) }
            return "{\"type\": \"function\", \"function\": {" + members.joined(separator: ", ") + "}}"
        }
        return "[AVAILABLE_TOOLS] [" + functions.joined(separator: ", ") + "][/AVAILABLE_TOOLS]"
    }

    /// What Mistral Small 3.1's template writes first in the system prompt when there are tools.
    static let parallelCallPrompt = "You are a helpful assistant that can call tools. If you call one or more tools, format them in a single JSON array or objects, where each object is a tool call, not as separate objects outside of an array or multiple arrays. Use the format [{\"name\": tool call name, \"arguments\": tool call arguments}, additional tool calls] if you call more than one tool. If you call tools, do not attempt to interpret them or otherwise provide a response until you receive a tool call result that you can interpret for the user."
}

extension ToolCallSyntax {
    /// `[TOOL_CALLS] [{"name": …, "arguments": …, "id": "<9 letters or digits>"}, …]`.
    public static let mistral = ToolCallSyntax(
        roundOpen: "[TOOL_CALLS] [", callOpen: "",
        body: .jsonObject(argumentsKey: "arguments", identifier: .init(key: "id", grammar: #""\"" [a-zA-Z0-9]{9} "\"""#)),
        callClose: "", separator: ", ", roundClose: "]", trigger: "[TOOL_CALLS]")
}
