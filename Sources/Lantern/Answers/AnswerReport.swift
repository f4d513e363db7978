import LocalModel
import SearchIndex

/// What one question produced, in the shape `ask --json` prints: the answer, the sources, the
/// trace of tool calls, timings in seconds and token counts. Built by `QuestionAnswerer`, so
/// every front end reports an answer with the same numbered sources.
public struct AnswerReport: Encodable, Sendable {
    public struct Source: Encodable, Sendable {
        public let id: String
        public let title: String?
        public let path: String?
        /// Whether the model read the item in full with the fetch tool (else it saw a result row).
        public let fetched: Bool
        /// The source's number when the answer cites it (`[id]` markers, numbered in the order
        /// of their first marker); nil for a source it saw but did not cite.
        public let citation: Int?
        /// Where in the item the cited text is (a page, lines), when the tool said; for an
        /// uncited item of several passages, where the passage its search showed is.
        public let location: String?
        /// The snippet of the item's best passage that its search result showed the model.
        public let snippet: String?
    }

    public struct Step: Encodable, Sendable {
        public let tool: String
        public let arguments: GeneratedContent
        /// Results of a search (nil for a fetch or a failed call).
        public let results: Int?
        /// Item identifiers the call returned or read.
        public let items: [String]
        /// The tool's error text, when the call failed.
        public let error: String?
        /// Whether the call repeated an earlier one and was not run again (its results are the earlier call's).
        public let repeated: Bool
        /// What the search tool added to the query from the question or relaxed when it found
        /// nothing (`QueryAdjustment`), one sentence each; empty when the query ran as written.
        public let adjustments: [String]
        /// How many of the index's items had vectors when the search ran (nil without an
        /// embedder): the others were found by their words only.
        public let vectors: VectorCoverage?
    }

    public struct Timings: Encodable, Sendable {
        public let load: Double
        public let retrieval: Double
        public let prefill: Double
        public let decode: Double
        /// From the question to the first text of the answer (tool rounds included); nil when
        /// the answer is empty.
        public let firstToken: Double?
        /// From the question to the first text the model generated, a tool call's included
        /// (the first round's first token); nil when the model generated nothing.
        public let firstGenerated: Double?
    }

    public struct Tokens: Encodable, Sendable {
        public let prompt: Int
        public let cached: Int
        /// Of `cached`, the system turn's tokens loaded from the prompt cache on disk.
        public let restored: Int
        public let generated: Int
    }

    public struct Entry: Encodable, Sendable {
        public let kind: String
        public let text: String
    }

    /// Why Lantern ended the answer before the model did.
    public enum Truncation: String, Encodable, Sendable {
        /// The answer reached the token cap of a generation round.
        case tokenLimit = "token limit"
        /// The answer filled the context window.
        case contextFull = "context full"
        /// The answer repeated itself and was stopped after a few copies.
        case repeatedText = "repeated text"

        init(_ truncation: Transcript.Response.Truncation) {
            switch truncation {
            case .tokenLimit: self = .tokenLimit
            case .contextFull: self = .contextFull
            case .repeatedSpan: self = .repeatedText
            }
        }
    }

    /// A call of one of the conversation's external tools, for the caller to run.
    public struct ExternalCall: Encodable, Sendable {
        public let id: String
        public let name: String
        /// Valid under the tool's schema: the call's grammar was compiled from it.
        public let arguments: GeneratedContent

        init(_ call: Transcript.ToolCall) {
            id = call.id
            name = call.toolName
            arguments = call.arguments
        }
    }

    public let question: String
    public let answer: String
    /// How the answer was written: "quote" or "prose" (`--answer auto` resolved for the model).
    public let answerStyle: String
    /// Cited sources first, by number, then every other item the model saw or read.
    public let sources: [Source]
    public let trace: [Step]
    public let timings: Timings
    public let tokens: Tokens
    /// Why the prompt cache was not used or not written (`PromptStateNote`); the answer is
    /// the same, only slower to start.
    public let notes: [String]
    /// The full transcript, with `--trace`.
    public let transcript: [Entry]?
    /// Why the answer was cut before the model ended it; nil (and left out of the JSON) when
    /// the model ended it.
    public var truncation: Truncation? = nil
    /// The calls of external tools the answer ended with, for the caller to run and send back
    /// (`Conversation.Next.toolOutputs`); nil (and left out) when the model answered.
    public var externalToolCalls: [ExternalCall]? = nil
}
