/// A tool the session describes to the model and constrains with its schema like any other,
/// but does not run: a round that calls it ends the response, whose `externalToolCalls` carry
/// the calls for the caller to run wherever the function lives, and
/// `LanguageModelSession.respond(continuingWith:)` goes on once the caller has their outputs.
///
/// This is how a served model offers a client's own functions (OpenAI's `tools`, which the
/// client runs). Apple's tools always run inside the session, so it has no such type; it is a
/// Lantern addition. The arguments are valid under `parameters` by construction: the call's
/// grammar is compiled from it, as every tool's is.
public struct ExternalTool: Tool {
    /// The generated arguments as they came: the caller reads them as JSON.
    public struct Arguments: ConvertibleFromGeneratedContent, Sendable {
        public let content: GeneratedContent
        public init(_ content: GeneratedContent) { self.content = content }
    }

    /// Running an external tool inside the session is a mistake of the code that did it.
    public struct RunInSessionError: Error, Sendable, CustomStringConvertible {
        public let toolName: String
        public var description: String {
            "\(toolName) is an external tool: its calls are handed back in Response.externalToolCalls for the caller to run, not run here"
        }
    }

    public let name: String
    public let description: String
    public let parameters: GenerationSchema

    public init(name: String, description: String, parameters: GenerationSchema) {
        self.name = name
        self.description = description
        self.parameters = parameters
    }

    /// Reads `jsonSchema` with `GenerationSchema(jsonSchema:)`, whose `SchemaError` names the
    /// construct Lantern cannot turn into a grammar and where it is.
    public init(name: String, description: String, jsonSchema: JSONValue) throws(SchemaError) {
        self.init(name: name, description: description, parameters: try GenerationSchema(jsonSchema: jsonSchema))
    }

    /// Never called by a session, which hands the call back instead.
    public func call(arguments: Arguments) async throws -> String {
        throw RunInSessionError(toolName: name)
    }
}
