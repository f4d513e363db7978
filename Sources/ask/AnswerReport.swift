import LocalModel
import SearchIndex

/// What one question produced, in the shape `--json` prints: the answer, the sources, the
/// trace of tool calls, timings in seconds and token counts.
struct AnswerReport: Encodable, Sendable {
    struct Source: Encodable, Sendable {
        let id: String
        let title: String?
        let path: String?
        /// Whether the model read the item in full with the fetch tool (else it saw a result row).
        let fetched: Bool
        /// The source's number when the answer cites it (`[id]` markers, numbered in the order
        /// of their first marker); nil for a source it saw but did not cite.
        let citation: Int?
        /// Where in the item the cited text is (a page, lines), when the tool said; for an
        /// uncited item of several passages, where the passage its search showed is.
        let location: String?
        /// The snippet of the item's best passage that its search result showed the model.
        let snippet: String?
    }

    struct Step: Encodable, Sendable {
        let tool: String
        let arguments: GeneratedContent
        /// Results of a search (nil for a fetch or a failed call).
        let results: Int?
        /// Item identifiers the call returned or read.
        let items: [String]
        /// The tool's error text, when the call failed.
        let error: String?
        /// Whether the call repeated an earlier one and was not run again (its results are the earlier call's).
        let repeated: Bool
        /// What the search tool added to the query from the question or relaxed when it found
        /// nothing (`QueryAdjustment`), one sentence each; empty when the query ran as written.
        let adjustments: [String]
        /// How many of the index's items had vectors when the search ran (nil without an
        /// embedder): the others were found by their words only.
        let vectors: VectorCoverage?
    }

    struct Timings: Encodable, Sendable {
        let load: Double
        let retrieval: Double
        let prefill: Double
        let decode: Double
        /// From the question to the first text of the answer (tool rounds included); nil when
        /// the answer is empty.
        let firstToken: Double?
        /// From the question to the first text the model generated, a tool call's included
        /// (the first round's first token); nil when the model generated nothing.
        let firstGenerated: Double?
    }

    struct Tokens: Encodable, Sendable {
        let prompt: Int
        let cached: Int
        /// Of `cached`, the system turn's tokens loaded from the prompt cache on disk.
        let restored: Int
        let generated: Int
    }

    struct Entry: Encodable, Sendable {
        let kind: String
        let text: String
    }

    let question: String
    let answer: String
    /// How the answer was written: "quote" or "prose" (`--answer auto` resolved for the model).
    let answerStyle: String
    /// Cited sources first, by number, then every other item the model saw or read.
    let sources: [Source]
    let trace: [Step]
    let timings: Timings
    let tokens: Tokens
    /// Why the prompt cache was not used or not written (`PromptStateNote`); the answer is
    /// the same, only slower to start.
    let notes: [String]
    /// The full transcript, with `--trace`.
    let transcript: [Entry]?
}
