import Foundation

/// The Hermes / Qwen2.5 / Qwen3 layout of tools inside ChatML: definitions in the system turn
/// between `<tools>` tags, calls as `<tool_call>{"name": …, "arguments": …}</tool_call>`,
/// results as `<tool_response>` blocks (see `ChatTemplate`).
///
/// The text matches what Qwen's own Jinja template writes, byte for byte, so a Qwen model sees
/// the layout it was trained on; SmolLM2 learns it from the instructions.
package enum ToolCallFormat {
    package static let callOpen = "<tool_call>"
    package static let callClose = "</tool_call>"

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
    package static func pythonStyleJSON(_ value: JSONValue) -> String {
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
    package enum ParsedCall: Sendable, Equatable {
        case call(name: String, arguments: JSONValue)
        case malformed(text: String, reason: String)
    }

    /// Every `<tool_call>` block in `text`, in order. An unterminated last block (the token
    /// limit cut it) is dropped when complete calls precede it — they run, and the model is not
    /// confused by an error about its own cut-off text — and reported as malformed otherwise.
    package static func parseCalls(in text: String) -> [ParsedCall] {
        let blocks = callBlocks(in: text)
        var calls = blocks.complete.map { parseCall(String($0.body).trimmingCharacters(in: .whitespacesAndNewlines)) }
        if calls.isEmpty, let cut = blocks.unterminated {
            calls.append(.malformed(text: String(text[cut...]), reason: "the call was cut off before </tool_call>"))
        }
        return calls
    }

    /// `text` without the complete `<tool_call>` blocks at `positions` (0-based, in the order
    /// `parseCalls` reads them): the text before the first block, the other blocks one per line
    /// (as Qwen's template writes several calls), and the text after the last unless it is blank.
    package static func removingCalls(at positions: Set<Int>, from text: String) -> String {
        let blocks = callBlocks(in: text).complete
        guard !positions.isEmpty, let first = blocks.first, let last = blocks.last else { return text }
        let kept = blocks.enumerated().filter { !positions.contains($0.offset) }.map { text[$0.element.whole] }
        let rest = text[last.whole.upperBound...]
        return String(text[..<first.whole.lowerBound]) + kept.joined(separator: "\n") + (rest.allSatisfy(\.isWhitespace) ? "" : rest)
    }

    /// `text` up to the end of its last complete call when an unterminated one follows it
    /// (what is re-rendered into the prompt); `text` itself otherwise.
    package static func trimmingIncompleteCall(_ text: String) -> String {
        let blocks = callBlocks(in: text)
        guard blocks.unterminated != nil, let last = blocks.complete.last else { return text }
        return String(text[..<last.whole.upperBound])
    }

    /// A complete block: from `<tool_call>` to its `</tool_call>`, and the text between them.
    private struct CallBlock {
        var whole: Range<String.Index>
        var body: Substring
    }

    /// The complete blocks of `text`, and where an unterminated last block's body starts.
    ///
    /// A block ends at the first `</tool_call>` before which its body is a whole JSON value, so
    /// a string argument that contains `</tool_call>` (the grammar allows any text in strings)
    /// does not cut the call short. A body that is no JSON value ends at the first close tag.
    private static func callBlocks(in text: String) -> (complete: [CallBlock], unterminated: String.Index?) {
        var blocks: [CallBlock] = []
        var rest = text[...]
        while let open = rest.range(of: callOpen) {
            let afterOpen = rest[open.upperBound...]
            var firstClose: Range<String.Index>?
            var close: Range<String.Index>?
            var searchFrom = afterOpen
            while close == nil, let candidate = searchFrom.range(of: callClose) {
                if firstClose == nil { firstClose = candidate }
                if (try? JSONValue(parsing: String(afterOpen[..<candidate.lowerBound]), duplicateKeys: .lastWins)) != nil { close = candidate }
                searchFrom = searchFrom[candidate.upperBound...]
            }
            guard let close = close ?? firstClose else { return (blocks, afterOpen.startIndex) }
            blocks.append(CallBlock(whole: open.lowerBound..<close.upperBound, body: afterOpen[..<close.lowerBound]))
            rest = afterOpen[close.upperBound...]
        }
        return (blocks, nil)
    }

    private static func parseCall(_ body: String) -> ParsedCall {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body, duplicateKeys: .lastWins)
        } catch {
            return .malformed(text: body, reason: "the call is not valid JSON: \(error)")
        }
        guard let name = value["name"]?.stringValue else {
            return .malformed(text: body, reason: "the call has no \"name\" string")
        }
        return .call(name: name, arguments: value["arguments"] ?? .object([:]))
    }
}
