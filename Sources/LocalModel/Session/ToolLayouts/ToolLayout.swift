/// One model family's way with tools and thinking, beyond the plain turns its template renders:
/// where the tool definitions go, how a call is spelled, how a result comes back, and how
/// thinking is switched off.
///
/// Each family is one type in this folder, and `ChatTemplate` picks it by the template's name
/// (`ChatTemplate.toolLayouts`), so a family is added without touching the session: the session
/// asks the layout for the system text, the call grammar's shape, the trigger and the reader.
public protocol ToolLayout: Sendable {
    /// What `ask info` shows ("hermes", "llama3-json", "mistral").
    var name: String { get }
    var callSyntax: ToolCallSyntax { get }
    /// The family's thinking block and its switch; nil for families that do not think.
    var thinking: ThinkingSyntax? { get }
    /// The text this family writes around a tool's result in the prompt (`<tool_response>`,
    /// `</tool_response>`): never part of an answer, so the response filter removes it when a
    /// small model echoes a result. Empty by default.
    var resultFraming: [String] { get }
    /// The system turn's text: the instructions and whatever this family writes of the tools
    /// there (the rest goes where `turns` puts it).
    func systemText(instructions: String, tools: [ToolDefinition]) -> String
    /// The conversation as the turns the template renders, tool results in the family's form and
    /// the tool definitions placed where the family's template places them. A system message,
    /// when there is one, comes first and holds `systemText`.
    func turns(_ messages: [ChatMessage], tools: [ToolDefinition]) -> [ChatTurn]
}

extension ToolLayout {
    public var resultFraming: [String] { [] }
}

/// A tool as the prompt describes it.
public struct ToolDefinition: Sendable, Hashable {
    public var name: String
    public var description: String
    /// The arguments' JSON Schema; nil when the tool asks not to have it in the prompt.
    public var parameters: JSONValue?

    public init(name: String, description: String, parameters: JSONValue?) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }

    /// `{"type": "function", "function": {"name": …, "description": …, "parameters": …}}`, the
    /// OpenAI form most templates write (`tojson`).
    public var functionObject: JSONValue {
        var function: JSONObject = ["name": .string(name), "description": .string(description)]
        if let parameters { function["parameters"] = parameters }
        return .object(["type": "function", "function": .object(function)])
    }
}
