// Fuzz target: a JSON Schema becomes a GenerationSchema, and the GBNF compiler's grammars (plain
// and tool call) are accepted by llama.cpp's own grammar parser; then random walks through each
// grammar, llama.cpp deciding every byte, must end in text that fits the schema: a JSON value
// the schema validates, and tool calls (in one family's call syntax, chosen per input) that
// parse and whose arguments it validates. Bad schemas
// throw typed errors. FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given
// as arguments.
import Foundation
import FuzzDriver
import LocalModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: input, as: UTF8.self)
    guard let json = try? JSONValue(parsing: text), let schema = try? GenerationSchema(jsonSchema: json) else { return 0 }
    let compiler = GrammarCompiler()
    var random = FuzzRandom(seedingFrom: input)
    var bytesLeft = walkedBytesPerInput
    if let grammar = try? compiler.grammar(for: schema) {
        walk(grammar, schemaText: text, random: &random, bytesLeft: &bytesLeft) { output in
            guard let value = try? JSONValue(parsing: output, duplicateKeys: .lastWins) else { return "it is not JSON" }
            return refusal(of: value, by: schema)
        }
    }
    // the schema's tool-call grammar in one family's call syntax, a different one per input
    let layouts = ChatTemplate.toolLayoutsInUse
    let syntax = layouts[Int(random.next() % UInt64(layouts.count))].callSyntax
    if let grammar = try? compiler.toolCallGrammar(for: [.init(name: "fuzz_tool", arguments: schema)], syntax: syntax) {
        walk(grammar, schemaText: text, random: &random, bytesLeft: &bytesLeft) { output in
            let calls = syntax.parseCalls(in: output)
            if calls.isEmpty { return "it holds no call" }
            for call in calls {
                guard case .call(let name, let arguments) = call else { return "a call does not parse: \(call)" }
                if name != "fuzz_tool" { return "a call names \(name)" }
                if let refusal = refusal(of: arguments, by: schema) { return "a call's arguments: \(refusal)" }
            }
            return nil
        }
    }
    return 0
}

/// Why the schema refuses `value`, or nil. Two exceptions are documented (GrammarCompiler): no
/// grammar can intersect a pattern with a length, so a string's length bounds beside a pattern
/// are checked by validation alone, and oneOf's "exactly one" is written as anyOf.
func refusal(of value: JSONValue, by schema: GenerationSchema) -> String? {
    do {
        try schema.validate(value)
        return nil
    } catch {
        let isLength = error.reason.contains("than the maximum length") || error.reason.contains("than the minimum length")
        // A pattern Swift's Regex cannot parse (a combining mark before a quantifier) leaves
        // validation unable to judge any value; that is noted, not a grammar bug.
        let unreadablePattern = error.reason.hasSuffix("is not a valid regular expression")
        if isLength && hasPatternWithLength(schema) || error.reason.hasSuffix("exactly one must match") || unreadablePattern { return nil }
        return "the schema refuses it: \(error)"
    }
}

func hasPatternWithLength(_ schema: GenerationSchema) -> Bool {
    let nested: [GenerationSchema]
    switch schema.kind {
    case .string(let minLength, let maxLength, let pattern): return pattern != nil && (minLength != nil || maxLength != nil)
    case .array(let items, _, _), .dictionary(let items, _): nested = [items]
    case .object(let properties): nested = properties.map(\.schema)
    case .anyOf(let schemas), .oneOf(let schemas): nested = schemas
    case .tuple(let prefix, let rest, _): nested = prefix + [rest].compactMap { $0 }
    default: nested = []
    }
    return (nested + schema.definitions.map(\.schema)).contains(where: hasPatternWithLength)
}

/// Checks that llama.cpp accepts `grammar`, then walks it a few times (within the bytes the
/// input has left, `walkedBytesPerInput`) and hands each text it accepts to `problem`, which
/// says what is wrong with it (nil: nothing). Anything wrong is a compiler bug, reported as a
/// crash.
func walk(_ grammar: Grammar, schemaText: String, random: inout FuzzRandom, bytesLeft: inout Int, problem: (String) -> String?) {
    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("\(message)\nschema: \(schemaText)\ngrammar:\n\(grammar.gbnf)\n".utf8))
        abort()
    }
    do {
        try grammarModel.validateGrammar(grammar.gbnf, root: grammar.root)
    } catch {
        fail("llama.cpp refused the grammar: \(error)")
    }
    for _ in 0..<walksPerGrammar where bytesLeft > 0 {
        var length = 0
        let walk: GrammarWalk
        do {
            walk = try grammarModel.walkGrammar(grammar.gbnf, root: grammar.root, maximumBytes: bytesLeft) { allowed, mayEnd in
                bytesLeft -= 1
                defer { length += 1 }
                return choose(from: allowed, mayEnd: mayEnd, length: length, random: &random)
            }
        } catch {
            fail("llama.cpp refused the grammar on a walk: \(error)")
        }
        switch walk {
        case .accepted(let bytes):
            let output = String(decoding: bytes, as: UTF8.self)
            if let problem = problem(output) {
                fail("the grammar accepts \(output.debugDescription) (bytes \(bytes.map { String($0, radix: 16) }.joined(separator: " "))), but \(problem)")
            }
        case .deadEnd(let bytes):
            fail("the grammar allows \(String(decoding: bytes, as: UTF8.self).debugDescription) and then nothing")
        case .tooLong:
            continue
        }
    }
}

let walksPerGrammar = 4

/// The bytes all walks of one input may take together. A step checks every byte against the
/// grammar: with a pattern such as `[a-\u{FFFD}]+` followed by 81 U+FFFD (seed 52), 8 walks of
/// about 300 bytes took over libFuzzer's 30 s under ASan; 768 bytes take about 9 s of CPU.
let walkedBytesPerInput = 768

/// Ends where the grammar may end (three times in four), otherwise a random allowed byte; past
/// 48 bytes, one that closes a string, object or array when it can, so walks tend to finish.
func choose(from allowed: [UInt8], mayEnd: Bool, length: Int, random: inout FuzzRandom) -> UInt8? {
    if mayEnd, allowed.isEmpty || random.next() % 4 != 0 { return nil }
    if length > 48, random.next() % 2 == 0, let closer = allowed.filter({ closers.contains($0) }).randomElement(using: &random) {
        return closer
    }
    return allowed.randomElement(using: &random)
}

let closers: Set<UInt8> = Set("\"}]".utf8)

/// The default model, vocabulary only: llama.cpp's grammar parser needs a vocabulary.
/// LANTERN_FUZZ_MODEL overrides the path.
let grammarModel: LocalModel = {
    let path = ProcessInfo.processInfo.environment["LANTERN_FUZZ_MODEL"] ?? "models/SmolLM2-135M-Instruct.Q4_1.gguf"
    do {
        return try LocalModel.vocabularyOnly(contentsOf: URL(fileURLWithPath: path))
    } catch {
        FileHandle.standardError.write(Data("fuzz-grammar: cannot load \(path): \(error)\n".utf8))
        exit(2)
    }
}()

@main struct GrammarFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
