// Fuzz target: the tool-call reader of every family's call syntax. On any text it never traps
// and finds calls only after the syntax's trigger or another spelling's opening (a `"name"` key,
// a naming tag such as `<function=`); calls written the way the family's template
// writes them (prose before them, the input's text as a name and arguments, the closing
// delimiter inside strings included) read back exactly, one alone and two in a round, and
// removing a call leaves the prose. FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or
// replays files given as arguments.
import Foundation
import FuzzDriver
import LocalModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for layout in ChatTemplate.toolLayoutsInUse { check(layout.callSyntax, on: text, size: size) }
    return 0
}

func check(_ syntax: ToolCallSyntax, on text: String, size: Int) {
    let trigger = syntax.trigger
    check(syntax.removingCalls(at: [], from: text) == text, "removing no call changed the text", text)

    // every other spelling opens with a `"name"` key or a naming tag's first word
    let openings = [trigger, "\"name\""] + syntax.spellings.namingTags.compactMap { $0.open.split(whereSeparator: \.isWhitespace).first.map(String.init) }
    let prose = removingEvery(openings, from: text)
    check(syntax.parseCalls(in: prose).isEmpty, "a call found in text without \(openings.joined(separator: " "))", prose)
    check(syntax.trimmingIncompleteCall(prose) == prose, "text without calls was trimmed", prose)

    let arguments = (try? JSONValue(parsing: text)) ?? .object(["text": .string(text)])
    // a name written bare (DeepSeek) is an identifier; a quoted one may hold anything
    var name = String(text.prefix(16)).filter { !$0.isWhitespace }
    if case .nameThenArguments = syntax.body { name = name.filter { $0.isLetter || $0.isNumber || $0 == "_" } }
    let call = syntax.text(of: [(name, arguments)])
    check(syntax.parseCalls(in: prose + call) == [.call(name: name, arguments: arguments)], "the call did not read back", prose + call)
    if syntax.roundOpen.isEmpty {
        check(syntax.removingCalls(at: [0], from: prose + call) == prose, "removing the call did not leave the prose", prose + call)
    }
    guard syntax.maximumCallsPerRound ?? 2 > 1 else { return }
    let second = (name: "second", arguments: JSONValue.object(["n": .int(size)]))
    let two = syntax.text(of: [second, (name, arguments)])
    check(syntax.parseCalls(in: prose + two + "\n") == [.call(name: second.name, arguments: second.arguments), .call(name: name, arguments: arguments)],
          "two calls did not read back", prose + two)
    let cut = syntax.text(of: [second]).dropLast(syntax.roundClose.count) + syntax.separator + String(call.dropFirst(syntax.roundOpen.count).prefix(syntax.callOpen.count + 4))
    check(syntax.trimmingIncompleteCall(prose + cut) == prose + syntax.text(of: [second]),
          "a cut-off call after a complete one was not trimmed", prose + cut)
}

/// `text` with every occurrence of each of `words` removed, until none is left (a removal may
/// join two halves into another), by Unicode scalars as the reader matches (a combining mark
/// after a word joins its last Character, which Character search would miss).
func removingEvery(_ words: [String], from text: String) -> String {
    var scalars = Array(text.unicodeScalars)
    let targets = words.map { Array($0.unicodeScalars) }.filter { !$0.isEmpty }
    while let range = targets.lazy.compactMap({ scalars.firstRange(of: $0) }).first { scalars.removeSubrange(range) }
    var result = String.UnicodeScalarView()
    result.append(contentsOf: scalars)
    return String(result)
}

/// A property of the input, reported as a crash when broken.
func check(_ condition: Bool, _ message: @autoclosure () -> String, _ text: String) {
    FuzzDriver.require(condition, "tool-call reader", message(), text)
}

@main struct ToolCallFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
