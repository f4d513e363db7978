import Lantern

/// A call of one of the client's functions, as OpenAI writes it in a message's `tool_calls`
/// (`{"id", "type": "function", "function": {"name", "arguments"}}`, the arguments as JSON
/// text), and, with `index`, as a streamed delta carries it whole. The arguments are valid under
/// the function's schema: the call's grammar was compiled from it.
struct FunctionCall: Encodable, Sendable {
    struct Function: Encodable, Sendable {
        let name: String
        let arguments: String
    }

    /// The call's place among the message's calls: set in a stream's delta only.
    var index: Int? = nil
    let id: String
    let type = "function"
    let function: Function

    /// `call` under `id`, the one the client sends back with its result.
    init(_ call: AnswerReport.ExternalCall, id: some StringProtocol, index: Int? = nil) {
        self.index = index
        self.id = String(id)
        function = Function(name: call.name, arguments: call.arguments.jsonString)
    }
}
