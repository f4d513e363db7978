import LocalModel

/// A Lantern `Tool` as an MCP client sees it: its name, its description (the guide its model
/// reads in a session), its arguments' JSON Schema as `inputSchema`, and what a call returns as
/// text and as structured content.
///
/// Arguments are checked against the same `GenerationSchema` the session checks a model's
/// calls against (and compiles its grammar from), so a client's model meets the rules a local
/// model meets, and a wrong argument comes back as a tool error naming the path and the rule
/// (`arguments.query.limit: 120 is above the maximum 50`) that the model can correct.
public struct ServedTool: Sendable {
    public let name: String
    public let description: String
    /// The arguments' schema, shown as `inputSchema` and checked before every call.
    public let parameters: GenerationSchema
    /// The JSON Schema of `Outcome.structured`, for `tools/list`'s `outputSchema`.
    public let outputSchema: JSONValue
    private let run: @Sendable (JSONValue) async throws -> Outcome

    /// What one call returned: the text the tool's model would read, the same result as JSON
    /// for programs, and whether the call failed (a tool error the model reads and corrects).
    public struct Outcome: Sendable {
        public var text: String
        /// Matches `outputSchema`; nil for a failed call.
        public var structured: JSONValue?
        public var isError: Bool

        /// A failed call: `text` says why.
        static func failure(_ text: String) -> Outcome { Outcome(text: text, structured: nil, isError: true) }
    }

    /// Serves `tool`; `structure` turns each of its results into an outcome.
    init<T: Tool>(_ tool: T, outputSchema: JSONValue, structure: @escaping @Sendable (ToolResult) -> Outcome) {
        name = tool.name
        description = tool.description
        parameters = tool.parameters
        self.outputSchema = outputSchema
        run = { arguments in structure(try await tool.result(for: T.Arguments(arguments))) }
    }

    /// Runs the tool with `arguments`. Every failure but cancellation is an outcome with
    /// `isError`, worded for the client's model; cancellation is thrown, since a cancelled
    /// request gets no response at all.
    func call(_ arguments: JSONValue) async throws -> Outcome {
        do {
            try parameters.validate(arguments, rootName: "arguments")
            return try await run(arguments)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            try Task.checkCancellation()
            return .failure("\(error)")
        }
    }
}
