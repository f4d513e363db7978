import LocalModel
import SearchTool

/// A search tool whose grammar makes every call run one app stage, so a test with the real
/// model can check what Lantern guarantees once the stage is written (its arguments, the call
/// valid against the open schema, the stage run and its output) without depending on whether
/// the model chose to write it: that choice changes with the CPU kernels ggml picks.
///
/// Each request's schema is the search tool's own (`SearchTool.parameters(for:)`, with the
/// stage's string arguments narrowed to the question's words) cut down further: the query is
/// only `stages`, required, holding exactly the one stage. That bounds the call too, so a
/// generous token limit always holds it whole. Calls are validated against the search tool's
/// open schema and run by the search tool.
struct ForcedStageTool: Tool {
    typealias Arguments = SearchTool.Arguments

    let search: SearchTool
    let stage: String

    var name: String { search.name }
    var description: String { search.description }
    var parameters: GenerationSchema { search.parameters }
    var includesSchemaInInstructions: Bool { search.includesSchemaInInstructions }

    func parameters(for prompt: Prompt) async -> GenerationSchema {
        let offered = await search.parameters(for: prompt)
        return Self.requiring(stage, in: offered) ?? offered
    }

    func call(arguments: SearchTool.Arguments) async throws -> String {
        try await search.call(arguments: arguments)
    }

    /// `schema` (a search tool's `{"query": …}` arguments) with the query reduced to a required
    /// `stages` array of one `stage`; nil when the schema does not offer that stage.
    static func requiring(_ stage: String, in schema: GenerationSchema) -> GenerationSchema? {
        guard case .object(var top) = schema.kind, let queryIndex = top.firstIndex(where: { $0.name == "query" }),
              case .object(let query) = top[queryIndex].schema.kind,
              var stages = query.first(where: { $0.name == "stages" }),
              case .array(let item, _, _) = stages.schema.kind else { return nil }
        let alternatives: [GenerationSchema] = if case .oneOf(let list) = item.kind { list } else { [item] }
        guard let chosen = alternatives.first(where: { alternative in
            guard case .object(let properties) = alternative.kind,
                  case .constant(let name)? = properties.first(where: { $0.name == "stage" })?.schema.kind else { return false }
            return name.stringValue == stage
        }) else { return nil }
        stages.isOptional = false
        stages.schema.kind = .array(items: chosen, minItems: 1, maxItems: 1)
        top[queryIndex].schema.kind = .object([stages])
        var result = schema
        result.kind = .object(top)
        return result
    }
}
