// Fuzz target: the tool-call reader. On any text it never traps and finds calls only where a
// `<tool_call>` opens; a call written the way a model writes one (prose before it, the input's
// text as its name and arguments, `</tool_call>` inside strings included) reads back exactly,
// alone and after another call, and removing it leaves the prose. FuzzDriver runs it under
// libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import LocalModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let open = ToolCallFormat.callOpen
    let calls = ToolCallFormat.parseCalls(in: text)
    check(calls.count <= text.components(separatedBy: open).count - 1, "more calls than \(open) tags", text)
    check(ToolCallFormat.removingCalls(at: [], from: text) == text, "removing no call changed the text", text)

    var prose = text
    while prose.contains(open) { prose = prose.replacingOccurrences(of: open, with: "") }
    check(ToolCallFormat.parseCalls(in: prose).isEmpty, "a call found in text without \(open)", prose)
    check(ToolCallFormat.trimmingIncompleteCall(prose) == prose, "text without calls was trimmed", prose)

    let arguments = (try? JSONValue(parsing: text)) ?? .object(["text": .string(text)])
    let name = String(text.prefix(16))
    let call = written(name: name, arguments: arguments)
    let second = written(name: "second", arguments: .object(["n": .int(size)]))
    check(ToolCallFormat.parseCalls(in: prose + call) == [.call(name: name, arguments: arguments)], "the call did not read back", prose + call)
    check(ToolCallFormat.parseCalls(in: prose + second + "\n" + call + "\n")
                == [.call(name: "second", arguments: .object(["n": .int(size)])), .call(name: name, arguments: arguments)],
            "two calls did not read back", prose + second + "\n" + call)
    check(ToolCallFormat.removingCalls(at: [0], from: prose + call) == prose, "removing the call did not leave the prose", prose + call)
    check(ToolCallFormat.trimmingIncompleteCall(prose + call + "\n" + open + "{\"na") == prose + call,
            "a cut-off call after a complete one was not trimmed", prose + call)
    return 0
}

/// A call as Qwen's template (and a model trained on it) writes one.
func written(name: String, arguments: JSONValue) -> String {
    ToolCallFormat.callOpen + "\n" + ToolCallFormat.pythonStyleJSON(.object(["name": .string(name), "arguments": arguments]))
        + "\n" + ToolCallFormat.callClose
}


/// A property of the input, reported as a crash when broken.
func check(_ condition: Bool, _ message: @autoclosure () -> String, _ text: String) {
    FuzzDriver.require(condition, "tool-call reader", message(), text)
}

@main struct ToolCallFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
