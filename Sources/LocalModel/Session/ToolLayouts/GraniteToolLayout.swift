/// Granite 3.x's layout of tools, as IBM's template writes it: the definitions in an
/// `available_tools` turn after the system turn (`tojson(indent=4)`), the calls one JSON list
/// after `<|tool_call|>`, and each result a `tool` turn. The template's own instruction for
/// calling ("respond only with <|tool_call|> followed by a JSON list of tools used") is part of
/// its default system message only; Lantern adds it after the caller's instructions, since a
/// session always has its own.
public struct GraniteToolLayout: ToolLayout {
    public let name = "granite"
    public let thinking: ThinkingSyntax? = .thinkTags
    public var callSyntax: ToolCallSyntax { .granite }

    public init() {}

    public func systemText(instructions: String, tools: [ToolDefinition]) -> String {
        guard !tools.isEmpty else { return instructions }
        return (instructions.isEmpty ? "" : instructions + " ") + Self.callingInstruction
    }

    public func turns(_ messages: [ChatMessage], tools: [ToolDefinition]) -> [ChatTurn] {
        var turns: [ChatTurn] = []
        for message in messages {
            turns.append(ChatTurn(role: message.role.rawValue, message))
            if message.role == .system, !tools.isEmpty {
                let definitions = JSONValue.array(tools.map(\.functionObject)).pythonStyleJSON(indent: 4)
                turns.append(ChatTurn(role: "available_tools", content: RenderedPrompt(definitions, parsesSpecialTokens: true)))
            }
        }
        return turns
    }

    /// The template's words for calling, from its default system message.
    static let callingInstruction = "You are a helpful assistant with access to the following tools. When a tool is required to answer the user's query, respond only with <|tool_call|> followed by a JSON list of tools used. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request."
}

extension ToolCallSyntax {
    /// `<|tool_call|>[{"name": …, "arguments": …}, …]`.
    public static let granite = ToolCallSyntax(roundOpen: "<|tool_call|>[", callOpen: "", body: .jsonObject(argumentsKey: "arguments"),
                                               callClose: "", separator: ", ", roundClose: "]", trigger: "<|tool_call|>")
}
