/// A tool with its types erased, so a session can hold tools of different `Arguments`.
struct ToolBox: Sendable {
    let name: String
    let description: String
    let parameters: GenerationSchema
    let includesSchemaInInstructions: Bool
    /// Whether the caller runs the tool's calls (`ExternalTool`): a call of it ends the response.
    let isExternal: Bool
    let tool: any Tool
    private let parametersForPrompt: @Sendable (Prompt) async -> GenerationSchema
    private let availability: @Sendable (Prompt) async -> Bool
    private let run: @Sendable (GeneratedContent) async throws -> ToolResult

    init<T: Tool>(_ tool: T) {
        name = tool.name
        description = tool.description
        parameters = tool.parameters
        includesSchemaInInstructions = tool.includesSchemaInInstructions
        isExternal = tool is ExternalTool
        self.tool = tool
        parametersForPrompt = { await tool.parameters(for: $0) }
        availability = { await tool.isAvailable(for: $0) }
        run = { content in try await tool.result(for: T.Arguments(content)) }
    }

    /// The per-request schema (a subset of `parameters`).
    func parameters(for prompt: Prompt) async -> GenerationSchema { await parametersForPrompt(prompt) }

    func isAvailable(for prompt: Prompt) async -> Bool { await availability(prompt) }

    /// Checks the arguments against the schema, decodes them and runs the tool.
    func call(_ arguments: GeneratedContent) async throws -> ToolResult {
        try parameters.validate(arguments, rootName: "arguments")
        return try await run(arguments)
    }

    var definition: ToolDefinition {
        .init(name: name, description: description, parameters: includesSchemaInInstructions ? parameters.jsonSchema : nil)
    }
}
