/// A function the model can call during a response (Apple's `Tool`, without the macros).
///
/// The arguments schema is the single source of truth: it is rendered into the prompt as the
/// tool's description of its parameters *and* compiled into the grammar that constrains the
/// call, so the two can never disagree. Tools are `Sendable` and may be called concurrently
/// when the model asks for several in one turn.
///
/// ```swift
/// struct WeatherTool: Tool {
///     struct Arguments: Generable, Decodable {
///         var city: String
///         static let generationSchema: GenerationSchema = .object([
///             .property("city", .string(description: "A city name", maxLength: 40)),
///         ])
///     }
///     let name = "get_weather"
///     let description = "Current weather for a city"
///     func call(arguments: Arguments) async throws -> String { "Sunny in \(arguments.city)" }
/// }
/// ```
public protocol Tool<Arguments, Output>: Sendable {
    associatedtype Arguments: ConvertibleFromGeneratedContent
    associatedtype Output: PromptRepresentable

    /// The name on the wire, unique among a session's tools.
    var name: String { get }
    /// What the tool does, in words the model reads.
    var description: String { get }
    /// The schema of `Arguments`.
    var parameters: GenerationSchema { get }
    /// Whether the schema is written into the instructions (Apple's default: true). The grammar
    /// is always built from it either way.
    var includesSchemaInInstructions: Bool { get }

    /// A schema for this one request that accepts a subset of `parameters`, for example with
    /// search terms limited to words of the user's question, or image labels limited to the
    /// prompt's attachments. Small models write far better arguments under a tight grammar;
    /// the instructions keep describing `parameters`, so the KV cache of the instructions stays
    /// valid across requests. The session asks again before every round of a response, so a
    /// tool may narrow its arguments to what earlier rounds produced. Defaults to `parameters`.
    func parameters(for prompt: Prompt) async -> GenerationSchema

    /// Whether the model may call the tool in the coming round. The tool stays described in
    /// the instructions either way; only the round's grammar leaves it out. A fetch tool, for
    /// example, has nothing to fetch before a search has shown identifiers. Defaults to true.
    func isAvailable(for prompt: Prompt) async -> Bool

    /// Runs the tool. A thrown error goes back to the model as the tool's response (or ends
    /// the response as a `ToolCallError`, if the session is configured so).
    func call(arguments: Arguments) async throws -> Output

    /// Runs the tool for a session: what the transcript entry of the call records, the text
    /// the model reads and the typed values an app reads back
    /// (`Transcript.ToolOutput.structuredContents(as:)`). The default runs
    /// `call(arguments:)` and records its output's text and, when the output is a `Hashable`
    /// value rather than a `String` (an OCR tool's `RecognizedText`), the output itself.
    /// A tool whose `call` returns plain text to its direct callers but has typed results for
    /// the app (the search tool's replies) implements this as well.
    func result(for arguments: Arguments) async throws -> ToolResult
}

extension Tool {
    public var includesSchemaInInstructions: Bool { true }
    public func parameters(for prompt: Prompt) async -> GenerationSchema { parameters }
    public func isAvailable(for prompt: Prompt) async -> Bool { true }

    /// The output's text alone: a value that is not `Hashable` cannot be compared in a transcript.
    public func result(for arguments: Arguments) async throws -> ToolResult {
        ToolResult(text: try await call(arguments: arguments).promptRepresentation)
    }
}

extension Tool where Output: Hashable {
    /// The output's text and, unless the output is that text (a `String`), the output itself.
    public func result(for arguments: Arguments) async throws -> ToolResult {
        let output = try await call(arguments: arguments)
        return ToolResult(text: output.promptRepresentation, structuredContent: output is String ? [] : [output])
    }
}

extension Tool where Arguments: Generable {
    public var parameters: GenerationSchema { Arguments.generationSchema }
}

extension Tool {
    /// The type's name, as Apple's default does, when a tool doesn't name itself.
    public var name: String { String(describing: Self.self) }
}

/// Something that can be placed in a prompt as text: a tool's output, for instance.
public protocol PromptRepresentable: Sendable {
    /// The text the model reads.
    var promptRepresentation: String { get }
}

extension String: PromptRepresentable {
    public var promptRepresentation: String { self }
}

extension JSONValue: PromptRepresentable {
    public var promptRepresentation: String { jsonString }
}
