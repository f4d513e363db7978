import LocalModel

extension Transcript.Entry {
    /// The entry's kind as `ask --trace` and `--json` print it.
    public var kindName: String {
        switch self {
        case .instructions: "instructions"
        case .prompt: "prompt"
        case .toolCalls: "tool calls"
        case .toolOutput(let output): "tool output (\(output.toolName))"
        case .response: "response"
        }
    }
}
