import LocalModel

/// The tool calls one response made, read from its transcript, and which of them were valid.
///
/// A call is valid when it parsed, names a tool the session offered, and its arguments validate
/// against that tool's schema. Calls the session could not parse are not in any `toolCalls`
/// entry; they show up as error outputs that answer no recorded call, and count as invalid.
public struct ToolCallLog: Sendable, Hashable {
    /// The parsed calls, in the order the model made them.
    public var calls: [Transcript.ToolCall]
    /// Calls the session recorded as malformed (no parsed call behind their output).
    public var malformedCount: Int
    /// Why each invalid parsed call is invalid, by call id.
    public var invalidReasons: [String: String]

    /// Reads `entries` (a response's transcript entries) and checks each call against
    /// `schemas`, the offered tools' argument schemas by wire name.
    public init(entries: some Sequence<Transcript.Entry>, schemas: [String: GenerationSchema]) {
        var calls: [Transcript.ToolCall] = []
        var outputs: [Transcript.ToolOutput] = []
        for entry in entries {
            switch entry {
            case .toolCalls(let turn): calls += turn.calls
            case .toolOutput(let output): outputs.append(output)
            case .instructions, .prompt, .response: break
            }
        }
        let callIDs = Set(calls.map(\.id))
        self.calls = calls
        malformedCount = outputs.filter { $0.isError && !callIDs.contains($0.id) }.count
        var reasons: [String: String] = [:]
        for call in calls {
            guard let schema = schemas[call.toolName] else {
                reasons[call.id] = "no tool named \(call.toolName)"
                continue
            }
            do {
                try schema.validate(call.arguments, rootName: "arguments")
            } catch {
                reasons[call.id] = error.description
            }
        }
        invalidReasons = reasons
    }

    /// Every call the model attempted, malformed ones included.
    public var attemptedCount: Int { calls.count + malformedCount }
    /// Calls that parsed and validated.
    public var validCount: Int { calls.count - invalidReasons.count }
}
