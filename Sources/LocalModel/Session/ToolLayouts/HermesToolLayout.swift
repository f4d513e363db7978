/// The Hermes / Qwen2.5 / Qwen3 layout of tools: definitions in the system turn between
/// `<tools>` tags, calls as `<tool_call>{"name": …, "arguments": …}</tool_call>`, results as
/// `<tool_response>` blocks in a user turn.
///
/// The text matches what Qwen's own Jinja template writes, byte for byte, so a Qwen model sees
/// the layout it was trained on; SmolLM2 learns it from the instructions. It is also the layout
/// of families whose templates have no tools of their own (Gemma, and every built-in layout
/// without a layout here): its calls are plain text inside any turn, and an instruction-tuned
/// model follows the instructions that describe them.
public struct HermesToolLayout: ToolLayout {
    public let name = "hermes"
    public let thinking: ThinkingSyntax?

    /// - Parameter thinking: the family's thinking block and switch (Qwen3's); by default
    /// `<think>` blocks are hidden, with no switch.
    public init(thinking: ThinkingSyntax? = .thinkTags) { self.thinking = thinking }

    public var callSyntax: ToolCallSyntax { .hermes }
    public var resultFraming: [String] { ["<tool_response>", "</tool_response>"] }

    public func systemText(instructions: String, tools: [ToolDefinition]) -> String {
        guard !tools.isEmpty else { return instructions }
        var text = instructions.isEmpty ? "" : instructions + "\n\n"
        text += "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
        text += "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
        for tool in tools { text += "\n" + tool.functionObject.pythonStyleJSON() }
        text += "\n</tools>\n\n"
        text += "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n"
        text += "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"
        return text
    }

    /// Consecutive tool results become one user turn, each inside `<tool_response>` tags.
    public func turns(_ messages: [ChatMessage], tools: [ToolDefinition]) -> [ChatTurn] {
        var turns: [ChatTurn] = []
        var index = messages.startIndex
        while index < messages.endIndex {
            guard messages[index].role == .tool else {
                turns.append(ChatTurn(role: messages[index].role.rawValue, messages[index]))
                index += 1
                continue
            }
            var content = RenderedPrompt()
            let parses = messages[index].parsesSpecialTokens
            var first = true
            while index < messages.endIndex, messages[index].role == .tool {
                content.append((first ? "" : "\n") + "<tool_response>\n" + messages[index].content + "\n</tool_response>",
                               parsesSpecialTokens: messages[index].parsesSpecialTokens)
                first = false
                index += 1
            }
            turns.append(ChatTurn(role: ChatMessage.Role.user.rawValue, content: content, parsesSpecialTokens: parses))
        }
        return turns
    }
}

extension ToolCallSyntax {
    /// `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>`, one call per block, blocks
    /// one per line; the other spellings Hermes-trained models write are read too.
    public static let hermes = ToolCallSyntax(roundOpen: "", callOpen: "<tool_call>\n", body: .jsonObject(argumentsKey: "arguments"),
                                              callClose: "\n</tool_call>", separator: "\n", roundClose: "", trigger: "<tool_call>",
                                              spellings: .hermes)
}
