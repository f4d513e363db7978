/// The grammars one response may use, compiled before anything is decoded: tool calls (from
/// each tool's per-prompt schema), the structured answer, and the two combined.
struct RoundGrammars {
    let toolCalls: Grammar?
    let answer: Grammar?
    let answerOrToolCalls: Grammar?
    /// The tools available for this prompt, by name.
    let toolNames: [String]

    init<Content>(tools: [ToolBox], prompt: Prompt, answer format: LanguageModelSession.AnswerFormat<Content>,
                   syntax: ToolCallSyntax, maximumCalls: Int) async throws {
        var signatures: [GrammarCompiler.ToolSignature] = []
        for tool in tools where await tool.isAvailable(for: prompt) {
            signatures.append(.init(name: tool.name, arguments: await tool.parameters(for: prompt)))
        }
        toolNames = signatures.map(\.name)
        let compiler = GrammarCompiler()
        do {
            toolCalls = signatures.isEmpty ? nil : try compiler.toolCallGrammar(for: signatures, syntax: syntax, maximumCalls: maximumCalls)
        } catch {
            throw LanguageModelSession.GenerationError.invalidToolSchema(tool: tools.map(\.name).joined(separator: ", "), error)
        }
        do {
            answer = try format.schema.map { schema throws(SchemaError) in try compiler.grammar(for: schema) }
            answerOrToolCalls = try format.schema.flatMap { schema throws(SchemaError) in
                signatures.isEmpty ? nil : try compiler.grammar(for: schema, orToolCalls: signatures, syntax: syntax, maximumCalls: maximumCalls)
            }
        } catch {
            throw LanguageModelSession.GenerationError.invalidGenerationSchema(type: format.typeName, error)
        }
    }
}
