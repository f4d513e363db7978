import LocalModel
import Synchronization

/// A tool made at run time from a name, a description and a JSON Schema, as function-calling
/// datasets give them: nothing behind it runs. It records the arguments of every call and
/// answers each with a short canned result, so the model's turn can end normally and the
/// evaluation scores what was asked for rather than what a real function would return.
public final class DynamicTool: Tool {
    /// The generated arguments, kept as they came (a dataset's tools have no Swift type).
    public struct Arguments: ConvertibleFromGeneratedContent, Sendable {
        public let content: GeneratedContent
        public init(_ content: GeneratedContent) { self.content = content }
    }

    public let name: String
    public let description: String
    public let parameters: GenerationSchema
    /// What every call returns to the model.
    public let result: String
    private let recorded = Mutex<[GeneratedContent]>([])

    /// Converts `jsonSchema` with `GenerationSchema(jsonSchema:)`; throws its `SchemaError`
    /// when Lantern cannot use the schema, so a caller can count the refusal.
    public init(name: String, description: String, jsonSchema: JSONValue, result: String = "done") throws(SchemaError) {
        self.name = name
        self.description = description
        self.parameters = try GenerationSchema(jsonSchema: jsonSchema)
        self.result = result
    }

    /// The arguments of every call so far, in the order the calls ran.
    public var calls: [GeneratedContent] { recorded.withLock { $0 } }

    public func call(arguments: Arguments) async throws -> String {
        recorded.withLock { $0.append(arguments.content) }
        return result
    }
}
