import Foundation

/// How a model family spells a round of tool calls in its answer: the one description the
/// grammar (what may be generated), the lazy trigger (when the grammar starts), the reader
/// (what was called) and the repeat watch (when a round stops early) are all built from.
///
/// A round is `roundOpen`, one or more calls separated by `separator`, then `roundClose`. A
/// call is `callOpen`, the tool's name and arguments in the family's form (`body`), then
/// `callClose`. Hermes and Qwen write each call in its own tags; Mistral writes one JSON array
/// after `[TOOL_CALLS]`; Llama 3 writes a bare JSON object; DeepSeek writes the name and the
/// arguments between its own tokens.
public struct ToolCallSyntax: Sendable, Hashable {
    /// The form of one call between `callOpen` and `callClose`.
    public enum Body: Sendable, Hashable {
        /// `{"name": "<tool>", "<argumentsKey>": <arguments>}`; `identifier`, when set, is one
        /// more member the family's calls carry (Mistral's nine-character `id`), as a GBNF
        /// body for its value.
        case jsonObject(argumentsKey: String, identifier: Identifier? = nil)
        /// `<tool><separator><arguments>`: the name bare, then the arguments' JSON.
        case nameThenArguments(separator: String)
    }

    /// A member the family's call objects carry besides the name and the arguments.
    public struct Identifier: Sendable, Hashable {
        /// The member's key (`"id"`).
        public var key: String
        /// The GBNF of the member's value, quotes included.
        public var grammar: String
    }

    /// Text before the first call of a round ("" when each call stands alone).
    public var roundOpen: String
    public var callOpen: String
    public var body: Body
    public var callClose: String
    /// Between two calls of one round.
    public var separator: String
    /// Text after the last call of a round.
    public var roundClose: String
    /// The text whose appearance means the model is calling: the lazy grammar's trigger (the
    /// grammar's text starts with it), hidden from the visible answer, a stop for free answers.
    public var trigger: String
    /// The most calls a round may hold in this family (Llama 3's template writes one), on top
    /// of `GenerationOptions.maximumToolCallsPerRound`.
    public var maximumCallsPerRound: Int?
    /// The other ways this family's models write a call (a bare or fenced JSON object, a list
    /// of calls): read as calls when the text holds none in the layout's own spelling.
    public var spellings: CallSpellings = .none

    /// How a call object written bare begins, when this family's models write calls so
    /// (`spellings`) and its calls are JSON objects: a second trigger of the tool-call grammar
    /// in rounds that answer in text. Spaced as a `LenientPattern`, as triggers are read: the
    /// 1.5B Qwen2.5-Coder writes `{\n  "name": ` as often as `{"name": `.
    package var bareCallOpening: String? {
        guard !spellings.argumentKeys.isEmpty, case .jsonObject = body else { return nil }
        return "{ \"name\" : "
    }

    /// What shows that the model is calling, in every spelling: the trigger, then each other
    /// spelling's opening. The response filter hides the text from the first of them on.
    var openings: [LenientPattern] {
        [LenientPattern(trigger)] + spellings.openings.map(\.pattern)
    }

    /// What an answer may not begin with (whitespace aside) when calls are over: the trigger
    /// and the other spellings' openings, a JSON object's `{` among them. The engine keeps the
    /// first tokens of the answer round from writing them (`GenerationParameters.forbiddenOpenings`),
    /// so an answer is never a call the session would not run.
    package var answerOpenings: [String] {
        [LenientPattern(trigger).compact] + spellings.forbiddenOpenings
    }

    /// The delimiters of one call, when both exist: what lets generation stop right after a call
    /// that repeats an earlier one (`RepeatedSpanStop`).
    var repeatedSpanStop: RepeatedSpanStop? {
        let open = callOpen.trimmingCharacters(in: .whitespacesAndNewlines)
        let close = callClose.trimmingCharacters(in: .whitespacesAndNewlines)
        return open.isEmpty || close.isEmpty ? nil : RepeatedSpanStop(open: open, close: close)
    }

    /// What ends a call, named in the error a cut-off call gets.
    private var callEnd: String {
        [callClose, roundClose].lazy.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty } ?? "the end of the call"
    }

    // MARK: Writing

    /// The canonical text of `calls` as a round (Python-style JSON, as Jinja's `tojson` writes
    /// it): what a transcript written by hand or a template's rendering of the same calls holds.
    /// A family whose calls carry an id gets the call's position, zero-padded to nine digits.
    public func text(of calls: [(name: String, arguments: JSONValue)]) -> String {
        roundOpen + calls.enumerated().map { position, call in
            switch body {
            case .jsonObject(let key, let identifier):
                let id = identifier.map { ", " + JSONValue.quoted($0.key) + ": " + JSONValue.quoted(Self.paddedPosition(position + 1)) } ?? ""
                return callOpen + "{\"name\": " + JSONValue.quoted(call.name) + ", " + JSONValue.quoted(key) + ": "
                    + call.arguments.pythonStyleJSON() + id + "}" + callClose
            case .nameThenArguments(let separator):
                return callOpen + call.name + separator + call.arguments.pythonStyleJSON() + callClose
            }
        }.joined(separator: separator) + roundClose
    }

    private static func paddedPosition(_ position: Int) -> String {
        let digits = String(position)
        return String(repeating: "0", count: max(0, 9 - digits.count)) + digits
    }

    /// The text every round of calls starts with, where the grammar leaves the model no choice:
    /// the round's and the first call's opening and, when `toolNames` holds one tool, its name
    /// up to the arguments. The engine decodes it with the prompt (`GenerationParameters.forcedPrefix`).
    public func forcedPrefix(toolNames: [String]) -> String {
        let single = toolNames.count == 1 ? toolNames[0] : nil
        switch body {
        case .jsonObject(let key, _):
            return roundOpen + callOpen + "{\"name\": " + (single.map { JSONValue.quoted($0) + ", " + JSONValue.quoted(key) + ": " } ?? "")
        case .nameThenArguments(let separator):
            return roundOpen + callOpen + (single.map { $0 + separator } ?? "")
        }
    }

    // MARK: Reading

    /// A call the model wrote, or why it could not be read.
    package enum ParsedCall: Sendable, Equatable {
        case call(name: String, arguments: JSONValue)
        case malformed(text: String, reason: String)
    }

    /// Every call in `text`, in order. An unterminated last call (the token limit cut it) is
    /// dropped when complete calls precede it — they run, and the model is not confused by an
    /// error about its own cut-off text — and reported as malformed otherwise.
    /// Text with no call in the layout's own spelling is read in the family's other spellings
    /// (`spellings`); a call those cut off is malformed the same way.
    package func parseCalls(in text: String) -> [ParsedCall] {
        let round = read(text)
        var calls = round.calls.map(\.parsed)
        guard calls.isEmpty else { return calls }
        let spelled = spellings.read(text)
        if !spelled.calls.isEmpty { return spelled.calls.map(\.parsed) }
        if let cut = round.unterminated ?? spelled.cutOff {
            calls.append(.malformed(text: String(Self.slice(text[...], from: cut)), reason: "the call was cut off before \(callEnd)"))
        }
        return calls
    }

    /// Whether `text` holds a call in any spelling this family's models write, cut-off ones
    /// included: what an answer must never be.
    package func containsCall(_ text: String) -> Bool {
        !parseCalls(in: text).isEmpty
    }

    /// `text` without the complete calls at `positions` (0-based, in the order `parseCalls`
    /// reads them): the text before the first call, the other calls joined by the separator,
    /// and the text after the last unless it is blank.
    package func removingCalls(at positions: Set<Int>, from text: String) -> String {
        let calls = read(text).calls
        guard !positions.isEmpty, let first = calls.first, let last = calls.last else { return text }
        let kept = calls.enumerated().filter { !positions.contains($0.offset) }.map { Self.slice(text[...], $0.element.range) }
        let rest = Self.slice(text[...], from: last.range.upperBound)
        return String(Self.slice(text[...], text.startIndex..<first.range.lowerBound)) + kept.joined(separator: separator) + (rest.allSatisfy(\.isWhitespace) ? "" : rest)
    }

    /// `text` up to the end of its last complete call, the round closed, when an unterminated
    /// call follows it (what is re-rendered into the prompt); `text` itself otherwise.
    /// Calls in another spelling are written in the layout's own (after the text before them),
    /// so the model reads its calls back as its template writes them.
    package func trimmingIncompleteCall(_ text: String) -> String {
        let round = read(text)
        if round.calls.isEmpty {
            let spelled = spellings.read(text).calls
            let valid = spelled.compactMap { call -> (name: String, arguments: JSONValue)? in
                if case .call(let name, let arguments) = call.parsed { (name, arguments) } else { nil }
            }
            if let first = spelled.first, !valid.isEmpty {
                return String(Self.slice(text[...], text.startIndex..<first.range.lowerBound)) + self.text(of: valid)
            }
        }
        guard round.unterminated != nil, let last = round.calls.last else { return text }
        return String(Self.slice(text[...], text.startIndex..<last.range.upperBound)) + roundClose
    }

    /// One call as read: what it says, and where it is (from its `callOpen` to its `callClose`).
    private struct ReadCall {
        var parsed: ParsedCall
        var range: Range<String.Index>
    }

    /// The calls of `text`, and where an unterminated last call starts. Calls start at the
    /// trigger. Calls in tags of their own may have text between them; the calls of a round
    /// (Mistral's array) follow each other until the round closes; a bare call stands alone.
    private func read(_ text: String) -> (calls: [ReadCall], unterminated: String.Index?) {
        guard let start = Self.find(trigger, in: text[...])?.lowerBound else { return ([], nil) }
        var calls: [ReadCall] = []
        var cursor = Self.slice(text[...], from: start)
        if !roundOpen.isEmpty {
            guard let afterOpen = Self.skipping(roundOpen, in: cursor) else { return ([], Self.isPrefix(of: roundOpen, cursor) ? start : nil) }
            cursor = afterOpen
        }
        let standalone = roundOpen.isEmpty && !callOpen.isEmpty
        while true {
            let callStart: String.Index
            if standalone {
                guard let openWord = Self.words(callOpen).first, let open = Self.find(openWord, in: cursor) else { return (calls, nil) }
                callStart = open.lowerBound
                guard let afterOpen = Self.skipping(callOpen, in: Self.slice(cursor, from: callStart)) else {
                    if Self.isPrefix(of: callOpen, Self.slice(cursor, from: callStart)) { return (calls, callStart) }
                    cursor = Self.slice(cursor, from: open.upperBound)
                    continue
                }
                cursor = afterOpen
            } else {
                cursor = Self.droppingWhitespace(cursor)
                callStart = cursor.startIndex
                if !callOpen.isEmpty {
                    guard let afterOpen = Self.skipping(callOpen, in: cursor) else {
                        return (calls, Self.isPrefix(of: callOpen, cursor) && !cursor.isEmpty ? callStart : nil)
                    }
                    cursor = afterOpen
                }
            }
            switch readCall(from: cursor) {
            case .complete(let parsed, let end):
                calls.append(ReadCall(parsed: parsed, range: callStart..<end))
                cursor = Self.slice(text[...], from: end)
            case .unterminated:
                return (calls, callStart)
            case .malformed(let bodyEnd, let resume, let reason):
                let body = String(Self.slice(text[...], cursor.startIndex..<bodyEnd)).trimmingCharacters(in: .whitespacesAndNewlines)
                calls.append(ReadCall(parsed: .malformed(text: body, reason: reason), range: callStart..<resume))
                guard standalone, resume < text.endIndex else { return (calls, nil) }
                cursor = Self.slice(text[...], from: resume)
                continue
            }
            if standalone { continue }
            if roundOpen.isEmpty { return (calls, nil) }
            // the round goes on after a separator (or, with none, at the next call's open)
            if !Self.words(separator).isEmpty, let afterSeparator = Self.skipping(separator, in: cursor) {
                cursor = afterSeparator
            } else if Self.words(separator).isEmpty, !callOpen.isEmpty, Self.skipping(callOpen, in: cursor) != nil {
                continue
            } else {
                return (calls, nil)
            }
        }
    }

    private enum CallReading {
        case complete(ParsedCall, end: String.Index)
        case unterminated
        /// The body could not be read: its text ends at `bodyEnd`; reading goes on at `resume`.
        case malformed(bodyEnd: String.Index, resume: String.Index, reason: String)
    }

    /// Reads one call's body and its `callClose` from the start of `text`.
    private func readCall(from text: Substring) -> CallReading {
        var rest = text
        var name: String?
        switch body {
        case .nameThenArguments(let separator):
            guard let cut = Self.find(separator, in: rest) else {
                // no separator yet: cut off while writing the name, unless the call closes
                let closes = Self.words(callClose).first.map { Self.find($0, in: rest) != nil } ?? false
                return closes ? closeOrCutOff(rest, reason: "the call has no \(separator) after its name") : .unterminated
            }
            name = Self.slice(rest, rest.startIndex..<cut.lowerBound).trimmingCharacters(in: .whitespacesAndNewlines)
            rest = Self.slice(rest, from: cut.upperBound)
        case .jsonObject:
            break
        }
        let value: JSONValue
        do {
            let read = try JSONValue.leadingValue(of: rest, duplicateKeys: .lastWins)
            value = read.value
            rest = Self.slice(rest, from: read.end)
        } catch {
            return closeOrCutOff(rest, reason: "the call is not valid JSON: \(error)")
        }
        let parsed: ParsedCall
        switch body {
        case .nameThenArguments:
            parsed = .call(name: name ?? "", arguments: value)
        case .jsonObject(let key, _):
            guard let called = value["name"]?.stringValue else {
                return .malformed(bodyEnd: rest.startIndex, resume: Self.skipping(callClose, in: rest)?.startIndex ?? rest.startIndex,
                                  reason: "the call has no \"name\" string")
            }
            parsed = .call(name: called, arguments: value[key] ?? .object([:]))
        }
        if let end = Self.skipping(callClose, in: rest) { return .complete(parsed, end: end.startIndex) }
        return rest.allSatisfy(\.isWhitespace) || Self.isPrefix(of: callClose, rest)
            ? .unterminated
            : .malformed(bodyEnd: rest.startIndex, resume: rest.startIndex, reason: "expected \(callEnd) after the call")
    }

    /// A body that could not be read: cut off when nothing closes it, malformed up to its close
    /// otherwise (reading goes on after it).
    private func closeOrCutOff(_ rest: Substring, reason: String) -> CallReading {
        let close = Self.words(callClose).first.flatMap { Self.find($0, in: rest) }
        guard let close else {
            return JSONValue(parsingPrefix: String(rest)) != nil || rest.allSatisfy(\.isWhitespace)
                ? .unterminated : .malformed(bodyEnd: rest.endIndex, resume: rest.endIndex, reason: reason)
        }
        return .malformed(bodyEnd: close.lowerBound, resume: Self.skipping(callClose, in: Self.slice(rest, from: close.lowerBound))?.startIndex ?? close.upperBound,
                          reason: reason)
    }

    /// The whitespace-separated words of a delimiter: a model may write `[TOOL_CALLS][` for
    /// `[TOOL_CALLS] [` or drop the newline after `<tool_call>`, so whitespace is never required.
    private static func words(_ delimiter: String) -> [String] {
        delimiter.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// `text` after `delimiter` (whitespace before and inside it skipped), nil when `text` does
    /// not start with it.
    private static func skipping(_ delimiter: String, in text: Substring) -> Substring? {
        var rest = text
        for word in words(delimiter) {
            rest = droppingWhitespace(rest)
            guard rest.unicodeScalars.starts(with: word.unicodeScalars) else { return nil }
            rest = Substring(rest.unicodeScalars.dropFirst(word.unicodeScalars.count))
        }
        return rest
    }

    // Delimiters are matched, and text is cut, by Unicode scalars: a combining mark right after
    // a delimiter (a bare name that starts with one) joins its last character, so neither
    // Character comparison nor an index rounded to a Character would see the delimiter.

    /// Where `word` first occurs in `text`, by scalars.
    private static func find(_ word: String, in text: Substring) -> Range<String.Index>? {
        text.unicodeScalars.firstRange(of: word.unicodeScalars)
    }

    /// `text` from `start` (a scalar boundary) on.
    private static func slice(_ text: Substring, from start: String.Index) -> Substring {
        Substring(text.unicodeScalars[start...])
    }

    /// The scalars of `text` in `range`.
    private static func slice(_ text: Substring, _ range: Range<String.Index>) -> Substring {
        Substring(text.unicodeScalars[range])
    }

    private static func droppingWhitespace(_ text: Substring) -> Substring {
        Substring(text.unicodeScalars.drop { $0.properties.isWhitespace })
    }

    /// Whether `text` (whitespace aside) is the start of `delimiter`: a close the limit cut.
    private static func isPrefix(of delimiter: String, _ text: Substring) -> Bool {
        let written = text.filter { !$0.isWhitespace }
        return words(delimiter).joined().hasPrefix(written)
    }
}
