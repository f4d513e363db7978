extension LanguageModelSession {
    /// What the session does when the model repeats a call it already made while answering the
    /// same prompt: the same tool with the same arguments (key order aside).
    ///
    /// Small models loop: SmolLM2 often writes one search three or four times in a row, and
    /// every copy of its output costs the context window and the time to read it. A repeat
    /// cannot tell the model anything new when the tool's output depends only on its arguments,
    /// as a search's or a lookup's does.
    public enum RepeatedToolCallPolicy: Sendable, Hashable {
        /// The default: a repeat is not run again. The transcript records it, with a short note
        /// as its output, and the prompt leaves it out, so the model reads the earlier output
        /// once. When every call of a round repeats, the next round must answer without
        /// tools, as at the round limit.
        case reuseEarlierOutput
        /// Every call runs, repeats included: for tools with side effects or changing output
        /// (a clock, a counter, a dice roll).
        case runEveryCall
    }

    /// The output a repeated call gets instead of running again (what the model reads).
    package static let repeatedCallNote = "This call repeats an earlier one (same tool, same arguments), so it was not run again: its output is above."

    /// The calls made while answering one prompt, to recognise repeats: by value when they
    /// run, and by text while they are generated (so a round stops at its first repeat).
    struct CallLedger: Sendable {
        private struct Signature: Hashable {
            let toolName: String
            let arguments: GeneratedContent
        }
        private var firstCalls: [Signature: String] = [:]
        /// Stops a round right after a call that repeats one written before; nil when the
        /// family's calls have no delimiters of their own to watch (repeats are then caught
        /// when the calls run).
        private(set) var generationStop: RepeatedSpanStop?

        init(syntax: ToolCallSyntax) { generationStop = syntax.repeatedSpanStop }

        /// Records the calls written in a round's text.
        mutating func recordText(of round: String) {
            guard let stop = generationStop else { return }
            generationStop?.earlierSpans.formUnion(stop.spans(in: round))
        }

        /// Records `call`. Returns the id of the same call made earlier, nil when it is new.
        mutating func earlierCall(matching call: Transcript.ToolCall) -> String? {
            let signature = Signature(toolName: call.toolName, arguments: call.arguments)
            if let earlier = firstCalls[signature] { return earlier }
            firstCalls[signature] = call.id
            return nil
        }
    }
}
