import LocalModel

/// One tool call a trajectory expects (Apple's `ToolExpectation(_:arguments:)`): the tool's wire
/// name and the argument keys the call must carry.
///
/// Apple's arguments are `.keyOnly(argumentName:)` values; Lantern's datasets only check keys
/// (values a model writes vary with phrasing), so the keys are plain strings.
public struct ToolExpectation: Sendable, Hashable, Codable {
    /// The tool's name on the wire (`spotlight_search`, not the Swift type name).
    public var tool: String
    /// Top-level argument keys the call must have.
    public var arguments: [String]

    public init(_ tool: String, arguments: [String] = []) {
        self.tool = tool
        self.arguments = arguments
    }

    private enum CodingKeys: String, CodingKey { case tool, arguments }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tool = try container.decode(String.self, forKey: .tool)
        arguments = try container.decodeIfPresent([String].self, forKey: .arguments) ?? []
    }

    /// Whether `call` is to this tool and has every expected argument key.
    public func matches(_ call: Transcript.ToolCall) -> Bool {
        guard call.toolName == tool else { return false }
        let keys = Set(call.arguments.objectValue?.keys ?? [])
        return arguments.allSatisfy(keys.contains)
    }
}
