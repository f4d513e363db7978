/// The answer grammars of a response whose tool outputs showed sources (issue 24).
///
/// - Citations (prose): a lazy grammar that starts at `[` and admits only `[id]` for a shown
///   source's id, then prose that may cite again. Before the first `[` nothing is constrained,
///   so prose costs what it costs without citations.
/// - Quotes: a grammar active from the first token: an optional lead-in, then one or more
///   `<sentence> [id]`, each sentence verbatim from the source it cites, in the evidence's order
///   (best first when ranked by the question) and each at most once (so a greedy model cannot
///   loop on one quote); the first one first when it answers the question (a count for "how
///   many").
///   The lead-in is one of `leadIns`: it can never add a claim. (A free lead-in of 80
///   characters let SmolLM2 write "The trail to the Grand Canyon is a scenic hike…" before its
///   quotes; one of the question's words made "Your notes to the in the in the:".)
///
/// When the round may also call tools, the grammar is "a round of calls, or the answer", the
/// calls' grammar taken whole from `GrammarCompiler` with its start rule renamed. After a
/// marker, prose may not write the first character of the call trigger (`<` of `<tool_call>`):
/// a call after cited prose would escape the call grammar, and the family's framing tags
/// (`<tool_response>`) start with it too.
struct GroundingGrammar {
    static let leadIns = ["From your notes:", "Here is what I found:"]
    private static let prefix = "lantern-grounded-"
    private static let toolRound = prefix + "tool-round"

    /// The citation grammar for the sources of `evidence`; its root begins with `Citation.markerOpen`, the
    /// lazy trigger. With `toolCalls`, the root is also a round of calls (triggered by the
    /// call syntax's trigger).
    static func citations(_ evidence: AnswerEvidence, orToolCalls toolCalls: Grammar?, trigger: String) -> Grammar {
        var rules = identifierRule(evidence.sourceIDs)
        let excluded = Self.excludedCharacters(trigger: trigger)
        rules.append("\(prefix)citation ::= \(GBNF.literal(Citation.markerOpen)) \(prefix)id \(GBNF.literal(Citation.markerClose))")
        rules.append("\(prefix)cited ::= \(prefix)citation (\(excluded) | \(prefix)citation)*")
        return combined(answer: "\(prefix)cited", rules: rules, toolCalls: toolCalls)
    }

    /// The quote grammar for `evidence`, in its order (nil when it holds no sentence).
    static func quotes(_ evidence: AnswerEvidence, orToolCalls toolCalls: Grammar?) -> Grammar? {
        let quotes = evidence.quotes
        guard !quotes.isEmpty else { return nil }
        var rules: [String] = []
        let count = quotes.count
        for (index, quote) in quotes.enumerated() {
            let number = index + 1
            rules.append("\(prefix)quote-\(number) ::= \(GBNF.literal(quote.sentence + " " + Citation.marker(quote.sourceID)))")
            // from-N: a quote of number N or later; after-N: the end, or a separator and a later one
            rules.append("\(prefix)from-\(number) ::= \(prefix)quote-\(number) \(prefix)after-\(number)"
                         + (number < count ? " | \(prefix)from-\(number + 1)" : ""))
            rules.append("\(prefix)after-\(number) ::= " + (number < count ? "(\(prefix)separator \(prefix)from-\(number + 1))?" : "\"\""))
        }
        rules.append("\(prefix)separator ::= \" \" | \"\\n\"")
        rules.append("\(prefix)lead-in ::= (" + leadIns.map(GBNF.literal).joined(separator: " | ") + ") \(prefix)separator")
        let first = evidence.firstQuoteAnswers ? "\(prefix)quote-1 \(prefix)after-1" : "\(prefix)from-1"
        rules.append("\(prefix)quoted ::= \(prefix)lead-in? \(first)")
        return combined(answer: "\(prefix)quoted", rules: rules, toolCalls: toolCalls)
    }

    private static func identifierRule(_ identifiers: [String]) -> [String] {
        ["\(prefix)id ::= " + identifiers.map(GBNF.literal).joined(separator: " | ")]
    }

    /// Any character but `[` and the call trigger's first.
    private static func excludedCharacters(trigger: String) -> String {
        var ranges: [ClosedRange<UInt32>] = [UInt32(("[" as Unicode.Scalar).value)...UInt32(("[" as Unicode.Scalar).value)]
        if let first = trigger.unicodeScalars.first, first != "[" { ranges.append(first.value...first.value) }
        return GBNF.characterClass(ranges, negated: true)
    }

    private static func combined(answer: String, rules: [String], toolCalls: Grammar?) -> Grammar {
        var lines: [String]
        if let toolCalls {
            // the call grammar's start rule becomes one alternative of ours
            let renamed = toolCalls.gbnf.split(separator: "\n", omittingEmptySubsequences: true).map { line in
                line.hasPrefix(toolCalls.root + " ::=") ? toolRound + String(line.dropFirst(toolCalls.root.count)) : String(line)
            }
            lines = ["root ::= \(toolRound) | \(answer)"] + renamed
        } else {
            lines = ["root ::= \(answer)"]
        }
        lines += rules
        return Grammar(gbnf: lines.joined(separator: "\n") + "\n", root: "root")
    }
}
