import LocalModel
import SearchIndex

/// An app-defined pipeline stage (Apple's `CustomStage`): registered in the configuration, it
/// appears in the query schema (so in the description and the grammar), and the model adds it to
/// a query with the arguments its schema allows.
///
/// Apple's stages are `@Generable` types the model instantiates; without macros, a Lantern stage
/// is an instance with an `argumentSchema` and receives the model's arguments in `execute`.
/// Stages may run concurrently (several tool calls in one turn), hence `Sendable`.
public protocol CustomStage: Sendable {
    /// The stage's name in queries (letters, digits, `_`; unique among the tool's stages).
    var name: String { get }
    /// When and why to use the stage, in words the model reads.
    var description: String { get }
    /// The data the stage accepts from the stage before it.
    var inputTypes: [SearchPipelineDataType] { get }
    /// What it returns.
    var outputType: SearchPipelineDataType { get }
    /// The arguments the model writes (an object schema; every value should be bounded).
    ///
    /// Small models invent free-text arguments (the default 135M model wrote words that were
    /// in neither the question nor the index), so with `restrictsTermsToQuestion` on (the
    /// default) each request's grammar narrows this schema: a string with declared values
    /// (`.string(anyOf:)`) stays that enumeration, a patterned string stays as it is, and every
    /// other string may only be one of the user's question's words or two- and three-word
    /// phrases, as written (stop words, stage names and their parts dropped; at most 48). Compare them
    /// case-insensitively. Where a required string cannot be filled that way (no word fits its
    /// length), the stage is left out of that request's grammar. The instructions show this
    /// schema unchanged, and calls are validated against it.
    var argumentSchema: GenerationSchema { get }
    /// Runs the stage on the previous stage's output. `items` carry the source's
    /// `fetchAttributes` (and, when a delegate is set, the hydrated attributes).
    func execute(input: SearchPipelineData, arguments: GeneratedContent) async throws -> SearchPipelineData
}
