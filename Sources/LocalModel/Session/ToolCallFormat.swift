import Foundation

/// The Hermes / Qwen2.5 / Qwen3 layout of tools inside ChatML: definitions in the system turn
/// between `<tools>` tags, calls as `<tool_call>{"name": …, "arguments": …}</tool_call>`,
/// results as `<tool_response>` blocks (see `ChatTemplate`).
///
/// The text matches what Qwen's own Jinja template writes, byte for byte, so a Qwen model sees
/// the layout it was trained on; SmolLM2 learns it from the instructions.
enum ToolCallFormat {
    static let callOpen = "<tool_call>"
    static let callClose = "</tool_call>"

    /// The system message: the instructions, then the tool block (when there are tools).
    static func systemMessage(instructions: String, tools: [ToolDefinition]) -> String {
        guard !tools.isEmpty else { return instructions }
        var text = instructions.isEmpty ? "" : instructions + "\n\n"
        text += "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
        text += "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
        for tool in tools { text += "\n" + definitionLine(tool) }
        text += "\n</tools>\n\n"
        text += "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n"
        text += "<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"
        return text
    }

    /// What one tool costs in the prompt, split the way TokenBudget reports it.
    struct ToolDefinition: Sendable {
        var name: String
        var description: String
        /// nil when the tool asks not to have its schema in the instructions.
        var parameters: JSONValue?
    }

    /// `{"type": "function", "function": {...}}` as Qwen's template writes it (`tojson`).
    static func definitionLine(_ tool: ToolDefinition) -> String {
        var function: JSONObject = ["name": .string(tool.name), "description": .string(tool.description)]
        if let parameters = tool.parameters { function["parameters"] = parameters }
        let line: JSONObject = ["type": "function", "function": .object(function)]
        return pythonStyleJSON(.object(line))
    }

    /// JSON with `", "` and `": "` separators, as Python's `json.dumps` (and so Jinja's
    /// `tojson`) writes it; non-ASCII kept as is.
    static func pythonStyleJSON(_ value: JSONValue) -> String {
        switch value {
        case .array(let items):
            return "[" + items.map(pythonStyleJSON).joined(separator: ", ") + "]"
        case .object(let object):
            return "{" + object.map { JSONValue.quoted($0.key) + ": " + pythonStyleJSON($0.value) }.joined(separator: ", ") + "}"
        default:
            return value.jsonString
        }
    }

    /// A call the model wrote, or why it could not be read.
    enum ParsedCall: Sendable {
        case call(name: String, arguments: JSONValue)
        case malformed(text: String, reason: String)
    }

    /// Every `<tool_call>` block in `text`, in order. An unterminated last block (the token
    /// limit cut it) is dropped when complete calls precede it — they run, and the model is not
    /// confused by an error about its own cut-off text — and reported as malformed otherwise.
    static func parseCalls(in text: String) -> [ParsedCall] {
        var calls: [ParsedCall] = []
        var rest = text[...]
        while let open = rest.range(of: callOpen) {
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.range(of: callClose) else {
                if calls.isEmpty {
                    calls.append(.malformed(text: String(afterOpen), reason: "the call was cut off before </tool_call>"))
                }
                break
            }
            let body = afterOpen[..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
            calls.append(parseCall(body))
            rest = afterOpen[close.upperBound...]
        }
        return calls
    }

    /// `text` without the complete `<tool_call>` blocks at `positions` (0-based, in the order
    /// `parseCalls` reads them): the text before the first block, the other blocks one per line
    /// (as Qwen's template writes several calls), and the text after the last unless it is blank.
    static func removingCalls(at positions: Set<Int>, from text: String) -> String {
        guard !positions.isEmpty else { return text }
        var blocks: [Substring] = []
        var leading: Substring?
        var rest = text[...]
        while let open = rest.range(of: callOpen), let close = rest[open.upperBound...].range(of: callClose) {
            if leading == nil { leading = rest[..<open.lowerBound] }
            blocks.append(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        let kept = blocks.enumerated().filter { !positions.contains($0.offset) }.map(\.element)
        return String(leading ?? "") + kept.joined(separator: "\n") + (rest.allSatisfy(\.isWhitespace) ? "" : rest)
    }

    /// `text` up to the end of its last complete call (what is re-rendered into the prompt).
    static func trimmingIncompleteCall(_ text: String) -> String {
        guard let lastOpen = text.range(of: callOpen, options: .backwards),
              text[lastOpen.upperBound...].range(of: callClose) == nil,
              let lastClose = text[..<lastOpen.lowerBound].range(of: callClose, options: .backwards) else { return text }
        return String(text[..<lastClose.upperBound])
    }

    private static func parseCall(_ body: String) -> ParsedCall {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body)
        } catch {
            return .malformed(text: body, reason: "the call is not valid JSON: \(error)")
        }
        guard let name = value["name"]?.stringValue else {
            return .malformed(text: body, reason: "the call has no \"name\" string")
        }
        return .call(name: name, arguments: value["arguments"] ?? .object([:]))
    }
}
