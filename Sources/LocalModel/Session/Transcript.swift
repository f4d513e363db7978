import Foundation

/// Everything a session has said and heard, in order (Apple's `Transcript`).
///
/// The transcript is what the session renders into the prompt each turn, so it holds tool
/// calls and their outputs as well as prompts and responses. (Calls that repeated earlier ones
/// are recorded but not rendered; see `LanguageModelSession.RepeatedToolCallPolicy`.)
public struct Transcript: Sendable, Hashable, RandomAccessCollection {
    public private(set) var entries: [Entry]

    public init(entries: [Entry] = []) { self.entries = entries }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }
    public subscript(position: Int) -> Entry { entries[position] }

    mutating func append(_ entry: Entry) { entries.append(entry) }

    /// Whether an entry or a call already has `id` (a tool output's id is its call's).
    func holdsID(_ id: String) -> Bool {
        entries.contains { entry in
            if entry.id == id { return true }
            if case .toolCalls(let turn) = entry { return turn.calls.contains { $0.id == id } }
            return false
        }
    }

    /// One item of the transcript.
    public enum Entry: Sendable, Hashable, Identifiable {
        case instructions(Instructions)
        case prompt(Prompt)
        case toolCalls(ToolCalls)
        case toolOutput(ToolOutput)
        case response(Response)

        public var id: String {
            switch self {
            case .instructions(let entry): entry.id
            case .prompt(let entry): entry.id
            case .toolCalls(let entry): entry.id
            case .toolOutput(let entry): entry.id
            case .response(let entry): entry.id
            }
        }
    }

    /// The system instructions and the tools offered with them.
    public struct Instructions: Sendable, Hashable {
        public var id: String
        public var text: String
        /// The names of the tools described to the model.
        public var toolNames: [String]
    }

    /// What the user asked; attachments are recorded by label.
    public struct Prompt: Sendable, Hashable {
        public var id: String
        /// The text as the model reads it (attachment labels included).
        public var text: String
        public var attachments: [ImageAttachment]
        public var options: GenerationOptions

        public init(id: String, text: String, attachments: [ImageAttachment] = [], options: GenerationOptions = GenerationOptions()) {
            self.id = id
            self.text = text
            self.attachments = attachments
            self.options = options
        }
    }

    /// The calls the model made in one turn.
    public struct ToolCalls: Sendable, Hashable {
        public var id: String
        public var calls: [ToolCall]
        /// The model's text for the turn as generated (re-rendered verbatim, so the KV cache
        /// still matches next turn), less calls that repeated earlier ones: their outputs are in
        /// the prompt once. Empty when every call repeated one; the turn is then left out.
        public var rawText: String

        /// A turn of `calls` whose text is `rawText`: for a turn of a conversation kept outside
        /// the session, the family's own spelling of the calls (`ToolCallSyntax.text(of:)`).
        public init(id: String, calls: [ToolCall], rawText: String) {
            self.id = id
            self.calls = calls
            self.rawText = rawText
        }
    }

    /// One call: which tool, with what arguments.
    public struct ToolCall: Sendable, Hashable, Identifiable {
        /// The call id, which its output refers to.
        public var id: String
        public var toolName: String
        public var arguments: GeneratedContent

        public init(id: String, toolName: String, arguments: GeneratedContent) {
            self.id = id
            self.toolName = toolName
            self.arguments = arguments
        }
    }

    /// What a tool returned (or the error it threw): the text the model reads and, beside it,
    /// the typed values the tool returned for the app (Apple's `ToolOutput`, whose `segments`
    /// are text and structure). The model reads only the text segments; an app reads a call's
    /// results back typed from the structure, paired with its call by `id`:
    ///
    /// ```swift
    /// for case .toolOutput(let output) in session.transcript {
    ///     let replies = output.structuredContents(as: SearchReply.self)
    /// }
    /// ```
    public struct ToolOutput: Sendable, Hashable, Identifiable {
        /// The id of the call this answers.
        public var id: String
        public var toolName: String
        /// The text the model reads (one `.text` segment), then the tool's typed values, one
        /// `.structure` segment each, in the order the tool returned them.
        public var segments: [Segment]
        /// Whether the tool threw; `text` then describes the error.
        public var isError: Bool
        /// When the call repeated an earlier one of the same response and was not run again
        /// (`RepeatedToolCallPolicy.reuseEarlierOutput`): that call's id, whose output (and
        /// structured content) stands. A repeat's own output holds only a note.
        public var repeatedCallID: String? = nil
        /// The sources the tool attached: what an answer may cite and quote (`ToolResult.sources`).
        public var sources: [CitableSource] = []

        /// An output of `text` and, after it, one structure segment per value of `structuredContent`;
        /// segment ids derive from the output's id, so a replayed response has the same transcript.
        /// An app that ran an external tool's call answers it with `id` the call's id and the
        /// text the model should read (`LanguageModelSession.respond(continuingWith:)`).
        public init(id: String, toolName: String, text: String, structuredContent: [any Sendable & Hashable] = [],
                    sources: [CitableSource] = [], isError: Bool = false, repeatedCallID: String? = nil) {
            self.id = id
            self.toolName = toolName
            self.segments = [.text(TextSegment(id: "\(id)-text", content: text))]
                + structuredContent.enumerated().map { .structure(StructuredSegment(id: "\(id)-structure-\($0.offset + 1)", content: $0.element)) }
            self.sources = sources
            self.isError = isError
            self.repeatedCallID = repeatedCallID
        }

        /// The text segments: what the model reads.
        public var text: String {
            segments.map { if case .text(let segment) = $0 { segment.content } else { "" } }.joined()
        }

        /// The values of type `Content` the tool returned beside its text, in order: a search
        /// call's `SearchReply`s, a fetch's `SearchableItem`, an OCR call's `RecognizedText`.
        /// Empty for an error, a repeat, or a tool that returned plain text.
        public func structuredContents<Content>(as type: Content.Type = Content.self) -> [Content] {
            segments.compactMap { if case .structure(let segment) = $0 { segment.content(as: type) } else { nil } }
        }
    }

    /// A part of a tool's output (Apple's `Transcript.Segment`).
    public enum Segment: Sendable, Hashable, Identifiable {
        /// Text the model reads.
        case text(TextSegment)
        /// A typed value for the app, which the model never reads.
        case structure(StructuredSegment)

        public var id: String {
            switch self {
            case .text(let segment): segment.id
            case .structure(let segment): segment.id
            }
        }
    }

    /// Text the model reads (Apple's `TextSegment`).
    public struct TextSegment: Sendable, Hashable, Identifiable {
        public var id: String
        public var content: String
    }

    /// A typed value a tool returned for the app (Apple's `StructuredSegment`).
    ///
    /// Apple's segment holds `GeneratedContent`, JSON the type is decoded from again; this one
    /// holds the tool's own Swift value, so an app reads a `SearchReply` back with its items,
    /// dates and scores whole, and nothing is encoded that nobody reads. The model never sees
    /// it: what the model reads is the output's text.
    public struct StructuredSegment: Sendable, Hashable, Identifiable {
        public var id: String
        /// The name of the content's type, e.g. `SearchReply`: which type the content
        /// represents (Apple's `source`).
        public let source: String
        /// The value itself; `content(as:)` reads it as its type.
        public let content: any Sendable & Hashable

        init(id: String, content: any Sendable & Hashable) {
            self.id = id
            self.source = String(describing: type(of: content))
            self.content = content
        }

        /// The content as a `Content`, or nil when it is of another type.
        public func content<Content>(as type: Content.Type = Content.self) -> Content? {
            content as? Content
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.id == rhs.id && lhs.source == rhs.source && lhs.content.isEqual(to: rhs.content)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(id)
            content.hash(into: &hasher)
        }
    }

    /// The model's answer, with any thinking removed.
    public struct Response: Sendable, Hashable {
        public var id: String
        public var text: String
        /// Why Lantern ended the answer before the model did; nil when the model ended it.
        public var truncation: Truncation? = nil

        public init(id: String, text: String, truncation: Truncation? = nil) {
            self.id = id
            self.text = text
            self.truncation = truncation
        }

        /// Why an answer was ended before the model ended it: a reader of the transcript can
        /// tell a looping or cut-off answer from a finished one.
        public enum Truncation: Sendable, Hashable {
            /// The answer wrote `span` over and over (`RepeatedTextStop`); it ended after a few copies.
            case repeatedSpan(String)
            /// The answer reached the response's token limit (`GenerationOptions.maximumResponseTokens`).
            case tokenLimit
            /// The answer filled the context window.
            case contextFull
        }
    }
}

extension Transcript.Entry {
    /// The entry as plain text, the way it appears inside the prompt.
    public var text: String {
        switch self {
        case .instructions(let entry): entry.text
        case .prompt(let entry): entry.text
        case .toolCalls(let entry): entry.rawText
        case .toolOutput(let entry): entry.text
        case .response(let entry): entry.text
        }
    }
}

extension Hashable {
    /// Whether `other` is a `Self` equal to this value: `==` across an existential.
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}

extension Sequence<Transcript.Entry> {
    /// The values of type `Content` the tool outputs among these entries carry, in transcript
    /// order: every `SearchReply` of a response, say (see `Transcript.ToolOutput.structuredContents(as:)`).
    public func structuredContents<Content>(as type: Content.Type = Content.self) -> [Content] {
        flatMap { entry -> [Content] in
            if case .toolOutput(let output) = entry { output.structuredContents(as: type) } else { [] }
        }
    }
}
