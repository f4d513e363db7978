// Fuzz target: a JSON Schema becomes a GenerationSchema and the GBNF compiler's grammars (plain and tool
// call) are accepted by llama.cpp's own grammar parser; bad schemas throw typed errors.
// FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import LocalModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let json = try? JSONValue(parsing: text), let schema = try? GenerationSchema(jsonSchema: json) else { return 0 }
    let compiler = GrammarCompiler()
    var grammars: [Grammar] = []
    if let grammar = try? compiler.grammar(for: schema) { grammars.append(grammar) }
    if let grammar = try? compiler.toolCallGrammar(for: [.init(name: "fuzz_tool", arguments: schema)]) { grammars.append(grammar) }
    for grammar in grammars {
        do {
            try grammarModel.validateGrammar(grammar.gbnf, root: grammar.root)
        } catch {
            // An emitted grammar llama.cpp refuses is a compiler bug: report it as a crash.
            FileHandle.standardError.write(Data("llama.cpp refused the grammar for \(text):\n\(error)\n\(grammar.gbnf)\n".utf8))
            abort()
        }
    }
    return 0
}

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
