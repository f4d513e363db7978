import Foundation
import Testing
@testable import LocalModel

/// Every spelling of a call the Hermes family's models write is read as a call, hidden from
/// what the user reads, and kept from beginning an answer (issue 47). The first two texts are
/// what Qwen2.5-Coder-1.5B and -0.5B wrote as their answers over the trails samples.
@Suite("Call spellings: read, hidden, never an answer's opening")
struct CallSpellingTests {
    static let syntax = ToolCallSyntax.hermes

    /// (what the model wrote, the calls it holds as name and arguments)
    static let spellings: [(String, [(String, JSONValue)])] = [
        (#"{"name": "fetch_item", "arguments": {"id": "0", "passage": 0, "page": 1, "around": ""}}"#,
         [("fetch_item", ["id": "0", "passage": 0, "page": 1, "around": ""])]),
        (#"{"name": "spotlight_search", "arguments": {"query": "California water"}}"#,
         [("spotlight_search", ["query": "California water"])]),
        ("{\n  \"name\": \"spotlight_search\",\n  \"arguments\": {\n    \"query\": \"waterfall\"\n  }\n}",
         [("spotlight_search", ["query": "waterfall"])]),
        ("```json\n{\"name\": \"spotlight_search\", \"arguments\": {\"query\": \"lake\"}}\n```",
         [("spotlight_search", ["query": "lake"])]),
        ("```\n{ \"name\": \"spotlight_search\", \"arguments\": {\"query\": \"lake\"} }\n```",
         [("spotlight_search", ["query": "lake"])]),
        ("<tool_call>\n{\"name\": \"spotlight_search\", \"arguments\": {\"query\": \"ridge\"}}",
         [("spotlight_search", ["query": "ridge"])]),
        ("<function_call>{\"name\": \"spotlight_search\", \"arguments\": {\"query\": \"ridge\"}}</function_call>",
         [("spotlight_search", ["query": "ridge"])]),
        ("```xml\n<response>\n{\"name\": \"spotlight_search\", \"arguments\": {\"query\": \"ridge\"}}\n</response>\n```",
         [("spotlight_search", ["query": "ridge"])]),
        (#"[{"name": "spotlight_search", "arguments": {"query": "a"}}, {"name": "fetch_item", "arguments": {"id": "1"}}]"#,
         [("spotlight_search", ["query": "a"]), ("fetch_item", ["id": "1"])]),
        (#"<function=spotlight_search>{"query": "coast"}</function>"#, [("spotlight_search", ["query": "coast"])]),
        (#"<function name="spotlight_search">{"query": "coast"}</function>"#, [("spotlight_search", ["query": "coast"])]),
        (#"{"name": "spotlight_search", "parameters": "{\"query\": \"coast\"}"}"#, [("spotlight_search", ["query": "coast"])]),
    ]

    @Test(arguments: spellings.indices)
    func eachSpellingIsReadAsItsCalls(_ index: Int) {
        let (text, expected) = Self.spellings[index]
        for written in [text, "Let me look that up.\n" + text] {
            let calls = Self.syntax.parseCalls(in: written)
            #expect(calls == expected.map { .call(name: $0.0, arguments: $0.1) }, "\(written)")
            #expect(Self.syntax.containsCall(written))
        }
    }

    @Test func theLayoutsOwnSpellingIsReadAsBefore() {
        let text = "<tool_call>\n{\"name\": \"add\", \"arguments\": {\"a\": 1}}\n</tool_call>"
        #expect(Self.syntax.parseCalls(in: text) == [.call(name: "add", arguments: ["a": 1])])
        #expect(Self.syntax.trimmingIncompleteCall(text) == text)
    }

    @Test func aCallInAnotherSpellingGoesBackToTheModelInItsLayout() {
        let text = "Searching.\n```json\n{\"name\": \"spotlight_search\", \"arguments\": {\"query\": \"lake\"}}\n```"
        #expect(Self.syntax.trimmingIncompleteCall(text)
                == "Searching.\n<tool_call>\n{\"name\": \"spotlight_search\", \"arguments\": {\"query\": \"lake\"}}\n</tool_call>")
    }

    @Test func dataWithANameAndProseAreNotCalls() {
        for text in [#"{"name": "Lake Trail", "length": 5}"#, "Mist Trail has a waterfall {and a bridge}.", "[1] the list", ""] {
            #expect(Self.syntax.parseCalls(in: text).isEmpty, "\(text)")
            #expect(!Self.syntax.containsCall(text))
        }
    }

    @Test func aCallTheLimitCutIsMalformedAndStillACall() {
        let calls = Self.syntax.parseCalls(in: #"Sure. {"name": "spotlight_search", "arguments": {"query": "wat"#)
        guard calls.count == 1, case .malformed(let text, let reason) = calls[0] else { Issue.record("\(calls)"); return }
        #expect(text.hasPrefix(#"{"name""#))
        #expect(reason.contains("cut off"))
    }

    // MARK: The filter

    /// The text the user would read, fed to the filter `size` characters at a time, and every
    /// snapshot of it on the way.
    static func visible(_ text: String, pieces size: Int) -> (text: String, snapshots: [String]) {
        var filter = ResponseTextFilter(layout: HermesToolLayout())
        var shown = ""
        var snapshots: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            shown += filter.feed(String(rest.prefix(size)))
            snapshots.append(shown)
            rest = rest.dropFirst(size)
        }
        shown += filter.finish()
        return (shown, snapshots)
    }

    @Test(arguments: spellings.indices)
    func theFilterHidesEverySpellingWhateverThePieces(_ index: Int) {
        let prose = "Mist Trail has a waterfall."
        for size in [1, 3, 7, 1000] {
            let (text, snapshots) = Self.visible(prose + "\n" + Self.spellings[index].0, pieces: size)
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == prose, "pieces of \(size)")
            #expect(!snapshots.contains { $0.contains("name") || $0.contains("{") || $0.contains("<f") || $0.contains("`") })
        }
    }

    @Test func theFilterShowsBracesThatOpenNoCall() {
        let text = "Bring {water} and a map; [see the notes] <b>."
        #expect(Self.visible(text, pieces: 2).text == text)
    }

    // MARK: The answer's first tokens

    static func pieces(_ texts: [Token: String]) -> [UInt8: [(token: Token, bytes: [UInt8])]] {
        var pieces: [UInt8: [(token: Token, bytes: [UInt8])]] = [:]
        for (token, text) in texts {
            let bytes = Array(text.utf8).filter { !ForbiddenOpenings.isWhitespace($0) }
            if let first = bytes.first { pieces[first, default: []].append((token, bytes)) }
        }
        return pieces
    }

    @Test func anAnswerMayNotBeginAsACallInAnySpelling() {
        let vocabulary: [Token: String] = [1: "{", 2: " {\"", 3: "Mist", 4: "[", 5: "{\"name", 6: "```", 7: "json", 8: "<tool_call>",
                                           9: "\n", 10: "<function", 11: "The", 12: "<b>", 13: "\"name\":", 14: "\"Mist"]
        let pieces = Self.pieces(vocabulary)
        var openings = ForbiddenOpenings(Self.syntax.answerOpenings)
        // `<function` is only the start of `<function=`: it may be written, `=` may not follow
        #expect(Set(openings.forbiddenTokens(pieces)) == [1, 2, 5, 6, 8, 13])
        openings.record(Array("\n".utf8))
        #expect(openings.isWatching)
        openings.record(Array("```json".utf8))
        #expect(Set(openings.forbiddenTokens(pieces)) == [1, 2, 5], "a fence may open, a call object may not follow it")
        var list = ForbiddenOpenings(Self.syntax.answerOpenings)
        list.record(Array("[".utf8))
        #expect(Set(list.forbiddenTokens(pieces)) == [1, 2, 5])
        var prose = ForbiddenOpenings(Self.syntax.answerOpenings)
        prose.record(Array("The".utf8))
        #expect(!prose.isWatching)
        #expect(prose.forbiddenTokens(pieces).isEmpty)
    }

    // MARK: A looping answer

    static func watchStops(_ text: String, pieces size: Int = 4) -> Bool {
        var watch = RepeatedTextStop.Watch(RepeatedTextStop())
        var rest = Substring(text)
        while !rest.isEmpty {
            if watch.repeats(after: String(rest.prefix(size))) { return true }
            rest = rest.dropFirst(size)
        }
        return false
    }

    @Test func aSpanWrittenThreeTimesEndsTheAnswer() {
        let loop = String(repeating: "[read_text] 53% me ", count: 40)
        #expect(Self.watchStops(loop))
        #expect(RepeatedTextStop().repeatedSpan(atEndOf: String(repeating: "[read_text] 53% me ", count: 3)) != nil)
        #expect(Self.watchStops("The answer is: " + String(repeating: "Mist Trail, ", count: 3)))
    }

    @Test func proseRulesAndTwoCopiesGoOn() {
        for text in ["Mist Trail has a waterfall. Steep Ravine has a creek. Lands End has the ocean.",
                     "It is very very very very steep.", "|---|---|---|---|---|---|---|---|", "=========================",
                     "Mist Trail, Mist Trail, and more."] {
            #expect(!Self.watchStops(text), "\(text)")
        }
    }
}
