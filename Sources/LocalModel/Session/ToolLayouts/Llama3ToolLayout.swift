/// Llama 3.1–3.3's layout of tools, as Meta's template writes it with its defaults
/// (`tools_in_user_message`): the definitions (`tojson(indent=4)`) and the calling instructions
/// open the first user message, a call is a bare JSON object
/// `{"name": …, "parameters": …}` and the whole answer, one call per round (the template
/// refuses more), and a result is an `ipython` turn holding the output as a JSON string.
///
/// With tools the system turn starts with the template's `Environment: ipython` line and its
/// knowledge and date lines, the date being the template's own default, so that a prompt does
/// not change from one day to the next.
public struct Llama3ToolLayout: ToolLayout {
    public let name = "llama3-json"
    public let thinking: ThinkingSyntax? = nil
    public var callSyntax: ToolCallSyntax { .llama3 }

    public init() {}

    public func systemText(instructions: String, tools: [ToolDefinition]) -> String {
        guard !tools.isEmpty else { return instructions }
        return "Environment: ipython\nCutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n" + instructions
    }

    public func turns(_ messages: [ChatMessage], tools: [ToolDefinition]) -> [ChatTurn] {
        let firstUser = tools.isEmpty ? nil : messages.firstIndex { $0.role == .user }
        return messages.indices.map { index in
            let message = messages[index]
            switch message.role {
            case .tool:
                return ChatTurn(role: "ipython", ChatMessage(.tool, JSONValue.string(message.content).jsonString,
                                                             parsesSpecialTokens: message.parsesSpecialTokens))
            case .user where index == firstUser:
                var content = RenderedPrompt()
                content.appendMarkup(Self.toolInstructions(tools))
                content.append(message.content, parsesSpecialTokens: message.parsesSpecialTokens)
                return ChatTurn(role: "user", content: content)
            default:
                return ChatTurn(role: message.role.rawValue, message)
            }
        }
    }

    /// What the template writes before the first user message's own text.
    static func toolInstructions(_ tools: [ToolDefinition]) -> String {
        "Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\n"
            + "Respond in the format {\"name\": function name, \"parameters\": dictionary of argument name and its value}.Do not use variables.\n\n"
            + tools.map { $0.functionObject.pythonStyleJSON(indent: 4) + "\n\n" }.joined()
    }
}

extension ToolCallSyntax {
    /// `{"name": …, "parameters": …}` alone, one per round.
    public static let llama3 = ToolCallSyntax(roundOpen: "", callOpen: "", body: .jsonObject(argumentsKey: "parameters"),
                                              callClose: "", separator: "", roundClose: "", trigger: "{\"name\"", maximumCallsPerRound: 1)
}
