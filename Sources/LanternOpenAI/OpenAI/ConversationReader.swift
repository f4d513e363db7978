import Foundation
import Lantern
import LocalModel

/// Reads a chat request's messages, tools and `tool_choice` into the `Conversation` the
/// answerer goes on from, refusing what it cannot be, with the field at fault, as OpenAI does:
///
/// - system (or developer) messages are said after the index's instructions;
/// - user and assistant messages are the earlier turns, each an entry named after its place
///   (`messages[3]`), so a conversation too long for the window is refused naming them;
/// - an assistant message's `tool_calls` are written in the model's own call spelling, and the
///   `tool` messages after it answer them, each call once;
/// - the last message is the user's (a new question) or the tool results of the last
///   assistant message's calls (the answer goes on from them);
/// - the client's function tools become `ExternalTool`s, their JSON Schemas checked to become
///   a call grammar now, rather than failing in the middle of an answer.
struct ConversationReader {
    /// How the served model spells calls, to write the history's calls as it would have.
    let callSyntax: ToolCallSyntax
    /// The names of the server's own tools, which a client's function may not take.
    let reservedToolNames: Set<String>

    func conversation(of request: ChatCompletionRequest) throws(OpenAIError) -> Conversation {
        let tools = try externalTools(request.tools ?? [])
        let choice = try toolChoice(request.toolChoice, tools: tools)
        var instructions: [String] = []
        var entries: [Transcript.Entry] = []
        var ids = Set<String>()
        /// The calls of the last assistant message not answered yet, by id.
        var open: [String: Transcript.ToolCall] = [:]
        var openMessage = 0
        func add(_ entry: Transcript.Entry, param: String) throws(OpenAIError) {
            guard ids.insert(entry.id).inserted else { throw .badRequest("the id '\(entry.id)' is used twice in the messages", param: param) }
            entries.append(entry)
        }
        func closeCalls(before index: Int) throws(OpenAIError) {
            guard open.isEmpty else {
                throw .badRequest("the assistant message messages[\(openMessage)] has tool_calls with no tool message answering them: \(open.keys.sorted().joined(separator: ", "))",
                                  param: "messages[\(index)]")
            }
        }
        for (index, message) in request.messages.enumerated() {
            let param = "messages[\(index)]"
            switch message.role {
            case "system", "developer":
                try closeCalls(before: index)
                let text = try Self.text(of: message, param: param)
                if !text.isEmpty { instructions.append(text) }
            case "user":
                try closeCalls(before: index)
                try add(.prompt(.init(id: param, text: try Self.text(of: message, param: param))), param: param)
            case "assistant":
                try closeCalls(before: index)
                let text = try Self.text(of: message, param: param)
                guard let calls = message.toolCalls, !calls.isEmpty else {
                    try add(.response(.init(id: param, text: text)), param: param)
                    continue
                }
                let read = try Self.calls(calls, param: param)
                for call in read {
                    guard !ids.contains(call.id), open[call.id] == nil else {
                        throw .badRequest("the tool call id '\(call.id)' is used twice in the messages", param: "\(param).tool_calls")
                    }
                    open[call.id] = call
                }
                openMessage = index
                let rawText = text + callSyntax.text(of: read.map { ($0.toolName, $0.arguments) })
                try add(.toolCalls(.init(id: param, calls: read, rawText: rawText)), param: param)
            case "tool":
                guard let id = message.toolCallID, !id.isEmpty else {
                    throw .badRequest("a tool message needs the tool_call_id of the call it answers", param: "\(param).tool_call_id")
                }
                guard let call = open.removeValue(forKey: id) else {
                    throw .badRequest("the tool message answers '\(id)', which is no unanswered call of the assistant message before it", param: "\(param).tool_call_id")
                }
                try add(.toolOutput(.init(id: id, toolName: call.toolName, text: try Self.text(of: message, param: param))), param: param)
            default:
                throw .badRequest("the role '\(message.role)' is not read (roles: system, developer, user, assistant, tool; send a function's result as role 'tool')",
                                  param: "\(param).role")
            }
        }
        try closeCalls(before: request.messages.count)
        let next: Conversation.Next
        switch request.messages.last?.role {
        case "user":
            guard case .prompt(let prompt)? = entries.popLast() else { throw .server("the last user message was not read as a prompt") }
            let question = prompt.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !question.isEmpty else { throw .badRequest("the last user message is empty", param: "messages[\(request.messages.count - 1)].content") }
            next = .question(question)
        case "tool":
            guard entries.contains(where: { if case .prompt = $0 { true } else { false } }) else {
                throw .badRequest("the messages have no user message to answer", param: "messages")
            }
            // the tool results after the last assistant message are what the answer goes on from
            let start = entries.lastIndex { if case .toolCalls = $0 { true } else { false } }.map { $0 + 1 } ?? entries.count
            let outputs = entries[start...].compactMap { if case .toolOutput(let output) = $0 { output } else { nil } }
            entries.removeSubrange(start...)
            next = .toolOutputs(outputs)
        default:
            guard entries.contains(where: { if case .prompt = $0 { true } else { false } }) else {
                throw .badRequest("the messages have no user message to answer", param: "messages")
            }
            throw .badRequest("the last message is the \(request.messages.last?.role ?? "nobody")'s; end with a user message or with tool results",
                              param: "messages[\(request.messages.count - 1)].role")
        }
        return Conversation(instructions: instructions.isEmpty ? nil : instructions.joined(separator: "\n\n"), history: entries,
                            next: next, externalTools: tools, toolChoice: choice)
    }

    /// The client's function tools, each with a schema the call grammar can hold.
    private func externalTools(_ tools: [ChatCompletionRequest.Tool]) throws(OpenAIError) -> [ExternalTool] {
        var external: [ExternalTool] = []
        for (index, tool) in tools.enumerated() {
            let param = "tools[\(index)]"
            guard tool.type == "function", let function = tool.function else {
                throw .badRequest("tool type '\(tool.type)' is not offered; only function tools are", param: "\(param).type")
            }
            let name = function.name
            guard (1...64).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
                throw .badRequest("the function name '\(name)' must be 1 to 64 letters, digits, '_' or '-'", param: "\(param).function.name")
            }
            guard !reservedToolNames.contains(name) else {
                throw .badRequest("'\(name)' is the name of the server's own tool; name the function otherwise", param: "\(param).function.name")
            }
            guard !external.contains(where: { $0.name == name }) else {
                throw .badRequest("two tools are named '\(name)'", param: "\(param).function.name")
            }
            let schema: JSONValue = function.parameters ?? ["type": "object", "properties": .object(JSONObject())]
            guard schema["type"] == "object" || (schema["type"] == nil && schema["properties"] != nil) else {
                throw .badRequest("the parameters of '\(name)' must be a JSON Schema of an object", param: "\(param).function.parameters")
            }
            do {
                let tool = try ExternalTool(name: name, description: function.description ?? "", jsonSchema: schema)
                // what the session will compile, compiled now, so a schema it cannot hold is this request's 400
                _ = try GrammarCompiler().toolCallGrammar(for: [.init(name: name, arguments: tool.parameters)], syntax: callSyntax, maximumCalls: 1)
                external.append(tool)
            } catch {
                throw .badRequest("the parameters of '\(name)' cannot become a call grammar: \(error)", param: "\(param).function.parameters")
            }
        }
        return external
    }

    private func toolChoice(_ choice: ChatCompletionRequest.ToolChoice?, tools: [ExternalTool]) throws(OpenAIError) -> Conversation.ExternalToolChoice {
        switch choice {
        case nil, .mode("auto")?:
            return .auto
        case .mode("none")?:
            return .none
        case .mode("required")?:
            guard !tools.isEmpty else { throw .badRequest("tool_choice is 'required' but the request has no tools", param: "tool_choice") }
            return .required
        case .mode(let mode)?:
            throw .badRequest("tool_choice '\(mode)' is none of 'none', 'auto', 'required' or a named function", param: "tool_choice")
        case .function(let name)?:
            guard tools.contains(where: { $0.name == name }) else {
                throw .badRequest("tool_choice names the function '\(name)', which is not among the request's tools", param: "tool_choice")
            }
            return .named(name)
        }
    }

    /// The calls of an assistant message, their arguments read as JSON objects.
    private static func calls(_ calls: [ChatCompletionRequest.ToolCall], param: String) throws(OpenAIError) -> [Transcript.ToolCall] {
        var read: [Transcript.ToolCall] = []
        for (index, call) in calls.enumerated() {
            let param = "\(param).tool_calls[\(index)]"
            guard !call.id.isEmpty else { throw .badRequest("a tool call needs an id", param: "\(param).id") }
            guard call.type == nil || call.type == "function" else {
                throw .badRequest("tool call type '\(call.type ?? "")' is not read; only function calls are", param: "\(param).type")
            }
            let arguments: JSONValue
            do {
                arguments = try JSONValue(parsing: call.function.arguments.isEmpty ? "{}" : call.function.arguments)
            } catch {
                throw .badRequest("the arguments are not JSON: \(error)", param: "\(param).function.arguments")
            }
            read.append(Transcript.ToolCall(id: call.id, toolName: call.function.name, arguments: arguments))
        }
        return read
    }

    /// A message's text: its string, or its text parts joined; other parts are refused.
    private static func text(of message: ChatCompletionRequest.Message, param: String) throws(OpenAIError) -> String {
        switch message.content {
        case .text(let string)?:
            return string
        case .parts(let parts)?:
            if let other = parts.first(where: { $0.type != "text" }) {
                throw .badRequest("only text parts are read, not '\(other.type)'", param: "\(param).content")
            }
            return parts.compactMap(\.text).joined(separator: "\n")
        case nil:
            return ""
        }
    }
}
