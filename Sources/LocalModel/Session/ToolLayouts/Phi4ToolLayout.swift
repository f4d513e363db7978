/// Phi-4-mini's layout of tools (llama.cpp names its template `phi3`). Its own template writes
/// the definitions only: a system message's tools go between `<|tool|>` and `<|/tool|>` after
/// its text, as a JSON list of the functions. For calls and results it writes nothing, so
/// Lantern follows llama.cpp's own Phi-4-mini template, which uses the vocabulary's tokens for
/// them and tells the model the form: each call `<|tool_call|>{"name": …, "arguments": …}<|/tool_call|>`,
/// each result a `<|tool_response|>` turn holding the output as a JSON string. Phi-3 models,
/// which share the layout but have no tool tokens, read the same text from the instruction.
public struct Phi4ToolLayout: ToolLayout {
    public let name = "phi4-mini"
    public let thinking: ThinkingSyntax? = nil
    public var callSyntax: ToolCallSyntax { .phi4 }
    public var resultFraming: [String] { ["<|tool_response|>"] }

    public init() {}

    public func systemText(instructions: String, tools: [ToolDefinition]) -> String {
        guard !tools.isEmpty else { return instructions }
        let functions = JSONValue.array(tools.map { $0.functionObject["function"] ?? .null })
        return instructions + "<|tool|>" + functions.pythonStyleJSON() + "<|/tool|>" + Self.callingInstruction
    }

    /// llama.cpp's words for calling, written after the definitions.
    static let callingInstruction = "You are a helpful assistant with some tools.\nTo use a tool, respond in this format: <|tool_call|>{\"name\": \"foo\", \"arguments\": {\"a\": 1}}<|/tool_call|>"

    public func turns(_ messages: [ChatMessage], tools: [ToolDefinition]) -> [ChatTurn] {
        messages.map { message in
            guard message.role == .tool else { return ChatTurn(role: message.role.rawValue, message) }
            return .markup("<|tool_response|>", JSONValue.string(message.content).jsonString, parsesSpecialTokens: message.parsesSpecialTokens, "<|end|>")
        }
    }
}

extension ToolCallSyntax {
    /// `<|tool_call|>{"name": …, "arguments": …}<|/tool_call|>`, calls back to back.
    public static let phi4 = ToolCallSyntax(roundOpen: "", callOpen: "<|tool_call|>", body: .jsonObject(argumentsKey: "arguments"),
                                            callClose: "<|/tool_call|>", separator: "", roundClose: "", trigger: "<|tool_call|>")
}
