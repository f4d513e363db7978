/// DeepSeek V3's layout of tools: calls between DeepSeek's own tokens,
/// `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>name<｜tool▁sep｜>{arguments}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>`,
/// as the V3.1 template writes them, and each result in
/// `<｜tool▁output▁begin｜>…<｜tool▁output▁end｜>`. The template writes no definitions: the
/// model card describes them in the system prompt, which is what `systemText` writes. Think
/// blocks (R1, V3.1) are hidden from the answer.
public struct DeepSeekToolLayout: ToolLayout {
    public let name = "deepseek-v3"
    public let thinking: ThinkingSyntax? = .thinkTags
    public var callSyntax: ToolCallSyntax { .deepSeek }
    public var resultFraming: [String] { ["<｜tool▁output▁begin｜>", "<｜tool▁output▁end｜>"] }

    public init() {}

    public func systemText(instructions: String, tools: [ToolDefinition]) -> String {
        guard !tools.isEmpty else { return instructions }
        var text = instructions.isEmpty ? "" : instructions + "\n\n"
        text += "## Tools\nYou have access to the following tools:\n"
        for tool in tools {
            text += "\n### \(tool.name)\nDescription: \(tool.description)\n\nParameters: \((tool.parameters ?? .object([:])).pythonStyleJSON())\n"
        }
        text += "\nIMPORTANT: ALWAYS adhere to this exact format for tool use:\n"
        text += "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>tool_call_name<｜tool▁sep｜>tool_call_arguments<｜tool▁call▁end｜>{{additional_tool_calls}}<｜tool▁calls▁end｜>\n\n"
        text += "Where:\n- `tool_call_name` must be an exact match to one of the available tools\n"
        text += "- `tool_call_arguments` must be valid JSON that strictly follows the tool's Parameters Schema\n"
        text += "- For multiple tool calls, chain them directly without separators or spaces"
        return text
    }

    public func turns(_ messages: [ChatMessage], tools: [ToolDefinition]) -> [ChatTurn] {
        messages.map { message in
            guard message.role == .tool else { return ChatTurn(role: message.role.rawValue, message) }
            return .markup("<｜tool▁output▁begin｜>", message.content, parsesSpecialTokens: message.parsesSpecialTokens, "<｜tool▁output▁end｜>")
        }
    }
}

extension ToolCallSyntax {
    /// `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>name<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>`.
    public static let deepSeek = ToolCallSyntax(
        roundOpen: "<｜tool▁calls▁begin｜>", callOpen: "<｜tool▁call▁begin｜>", body: .nameThenArguments(separator: "<｜tool▁sep｜>"),
        callClose: "<｜tool▁call▁end｜>", separator: "", roundClose: "<｜tool▁calls▁end｜>", trigger: "<｜tool▁calls▁begin｜>")
}
