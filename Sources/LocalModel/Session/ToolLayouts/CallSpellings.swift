import Foundation

/// The ways a family's models write a call other than the family's own layout: a bare JSON
/// object, a fenced ```json block, an object inside another tag (`<function_call>`), a list of
/// calls, a tag that names the function (`<function=search>`). An instruction-tuned model
/// writes them when it strays from its layout (Qwen2.5-Coder writes bare objects as its
/// answer), so they are a property of the family's `ToolCallSyntax`, read in one place: the
/// reader runs them as calls (`ToolCallSyntax.parseCalls`), the response filter hides them
/// (`ResponseTextFilter`), and the answer round may not begin with one
/// (`ToolCallSyntax.answerOpenings`). The Hermes set is what llama.cpp's Hermes 2 Pro parser
/// accepts (common/chat.cpp).
public struct CallSpellings: Sendable, Hashable {
    /// Code fences a call object may stand in (```json), closed by ```.
    public var fences: [String]
    /// Tags a call object may stand in (`<function_call>`); each is closed by its `</…>` form.
    public var tags: [String]
    /// Tags that name the function themselves, the arguments' JSON following them.
    public var namingTags: [NamingTag]
    /// Keys a call object's arguments may stand under, the first present wins.
    public var argumentKeys: [String]
    /// Whether a JSON array of call objects is a round of calls.
    public var readsLists: Bool

    /// `<open>NAME<nameEnd>{arguments}<close>`, as in `<function=search>{…}</function>`.
    public struct NamingTag: Sendable, Hashable {
        public var open: String
        public var nameEnd: String
        public var close: String
    }

    /// No other spelling: only the family's own layout is a call.
    public static let none = CallSpellings(fences: [], tags: [], namingTags: [], argumentKeys: [], readsLists: false)

    /// What llama.cpp's Hermes 2 Pro parser reads besides `<tool_call>…</tool_call>`: a call object
    /// bare, in a ```json / ```xml fence, in one of its tags (`<tool_call>` without its close
    /// among them), or both; `<function=NAME>` and `<function name="NAME">`; and a list of
    /// call objects, which small models write for several calls. `parameters` is read as
    /// `arguments` (the OpenAI spelling).
    public static let hermes = CallSpellings(
        fences: ["```json", "```xml", "```"],
        tags: ["<tool_call>", "<function_call>", "<tool>", "<tools>", "<response>", "<json>", "<xml>", "<JSON>"],
        namingTags: [NamingTag(open: "<function=", nameEnd: ">", close: "</function>"),
                     NamingTag(open: "<function name=\"", nameEnd: "\">", close: "</function>")],
        argumentKeys: ["arguments", "parameters"], readsLists: true)

    // MARK: Openings

    /// An opening the reader looks for, and what follows it.
    enum Opening: Hashable {
        /// A call object, after an optional fence and an optional tag.
        case object(fence: String?, tag: String?)
        /// A JSON array of call objects.
        case list
        case naming(NamingTag)
    }

    /// The text that begins each spelling, as the model may space it.
    var openings: [(pattern: LenientPattern, opening: Opening)] {
        guard !argumentKeys.isEmpty else { return [] }
        var openings: [(LenientPattern, Opening)] = []
        for fence in [nil] + fences.map(Optional.some) {
            for tag in [nil] + tags.map(Optional.some) {
                let prefix = [fence, tag].compactMap { $0 }.joined(separator: " ")
                openings.append((LenientPattern(prefix + " { \"name\""), .object(fence: fence, tag: tag)))
            }
        }
        if readsLists { openings.append((LenientPattern("[ { \"name\""), .list)) }
        openings += namingTags.map { (LenientPattern($0.open), .naming($0)) }
        return openings
    }

    /// What an answer may not begin with, whitespace removed: an object's `{` after any fence
    /// and tag (an answer that opens a JSON object is a call in some spelling), a list of
    /// objects, a naming tag, and a fence or a bare `"name"` (Qwen2.5-Coder-0.5B, kept from
    /// its `{`, wrote ```` ```json ```` and `"name": "spotlight_search", …` instead).
    var forbiddenOpenings: [String] {
        guard !argumentKeys.isEmpty else { return [] }
        var openings = fences + ["\"name\""]
        for fence in [""] + fences {
            for tag in [""] + tags { openings.append(fence + tag + "{") }
        }
        if readsLists { openings.append("[{") }
        openings += namingTags.map { LenientPattern($0.open).compact }
        return openings
    }

    // MARK: Reading

    /// One call as read, and where it stands in the text (its fence and tags included).
    struct SpelledCall {
        var parsed: ToolCallSyntax.ParsedCall
        var range: Range<String.Index>
    }

    /// Every call in `text` in these spellings, in order, and where a call the end of the text
    /// cut off starts (reading stops there).
    func read(_ text: String) -> (calls: [SpelledCall], cutOff: String.Index?) {
        let openings = self.openings
        guard !openings.isEmpty else { return ([], nil) }
        let patterns = openings.map(\.pattern)
        var calls: [SpelledCall] = []
        var rest = text[...]
        while let found = patterns.firstMatch(in: rest).complete,
              let opening = openings.first(where: { $0.pattern == found.pattern })?.opening {
            let start = found.range.lowerBound
            switch readCall(opening, in: text[...], from: start, afterOpening: found.range.upperBound) {
            case .read(let read, let end):
                calls += read.map { SpelledCall(parsed: $0, range: start..<end) }
                rest = Substring(text.unicodeScalars[end...])
            case .cutOff:
                return (calls, start)
            case .notACall:
                rest = Substring(text.unicodeScalars[found.range.upperBound...])
            }
        }
        return (calls, nil)
    }

    private enum Reading {
        case read([ToolCallSyntax.ParsedCall], end: String.Index)
        case cutOff
        case notACall
    }

    private func readCall(_ opening: Opening, in text: Substring, from start: String.Index, afterOpening: String.Index) -> Reading {
        switch opening {
        case .object(let fence, let tag):
            // the object starts at the opening's `{`
            guard let brace = text.unicodeScalars[start...].firstIndex(of: "{") else { return .notACall }
            return readJSON(in: text, from: brace) { value, end in
                var end = Self.skipping(tag.map(Self.closeTag), in: text, from: end)
                end = Self.skipping(fence == nil ? nil : "```", in: text, from: end)
                return call(from: value).map { .read([$0], end: end) } ?? .notACall
            }
        case .list:
            return readJSON(in: text, from: start) { value, end in
                let calls = value.arrayValue?.map(call(from:)) ?? []
                guard !calls.isEmpty, !calls.contains(where: { $0 == nil }) else { return .notACall }
                return .read(calls.compactMap { $0 }, end: end)
            }
        case .naming(let tag):
            let afterOpen = Substring(text.unicodeScalars[afterOpening...])
            guard let nameEnd = afterOpen.unicodeScalars.firstRange(of: tag.nameEnd.unicodeScalars) else { return .cutOff }
            let name = String(afterOpen.unicodeScalars[..<nameEnd.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
            return readJSON(in: text, from: nameEnd.upperBound) { value, end in
                .read([.call(name: name, arguments: value)], end: Self.skipping(tag.close, in: text, from: end))
            }
        }
    }

    /// Reads the JSON value at `start` and hands it to `read`; a value the text ends inside is
    /// cut off, one that cannot be read is not a call.
    private func readJSON(in text: Substring, from start: String.Index,
                          _ read: (JSONValue, String.Index) -> Reading) -> Reading {
        let rest = Substring(text.unicodeScalars[start...])
        do {
            let leading = try JSONValue.leadingValue(of: rest, duplicateKeys: .lastWins)
            return read(leading.value, leading.end)
        } catch {
            return JSONValue(parsingPrefix: String(rest)) != nil ? .cutOff : .notACall
        }
    }

    /// A call object as a call: its `name`, and its arguments under the first argument key
    /// present (a string holding JSON, as OpenAI's API writes them, is read as that JSON).
    /// An object with neither is data that happens to have a name (`{"name": "Lake Trail"}`),
    /// not a call.
    private func call(from value: JSONValue) -> ToolCallSyntax.ParsedCall? {
        guard let arguments = argumentKeys.lazy.compactMap({ value[$0] }).first else { return nil }
        guard let name = value["name"]?.stringValue else {
            return .malformed(text: value.pythonStyleJSON(), reason: "the call has no \"name\" string")
        }
        if let encoded = arguments.stringValue, let decoded = try? JSONValue(parsing: encoded) {
            return .call(name: name, arguments: decoded)
        }
        return .call(name: name, arguments: arguments)
    }

    private static func closeTag(_ tag: String) -> String { "</" + tag.dropFirst() }

    /// Past `delimiter` (and the whitespace before it) when it follows `index`; `index` otherwise.
    private static func skipping(_ delimiter: String?, in text: Substring, from index: String.Index) -> String.Index {
        guard let delimiter else { return index }
        let start = text.unicodeScalars[index...].firstIndex { !$0.properties.isWhitespace } ?? text.endIndex
        guard case .complete(let end) = LenientPattern(delimiter).match(in: text, at: start) else { return index }
        return end
    }
}
