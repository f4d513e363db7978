// Fuzz target: a JSON Schema becomes a GenerationSchema and the GBNF compiler's grammars (plain and tool
// call) are accepted by llama.cpp's own grammar parser; bad schemas throw typed errors.
// scripts/fuzz.sh builds it with -sanitize=fuzzer -D LANTERN_FUZZ and runs libFuzzer's driver;
// the normal build gets a main that runs each file given as an argument through the same function.
import Foundation
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

#if LANTERN_FUZZ
// SwiftPM links an executable target's main under a name of its own, so libFuzzer's main is not
// used; this main hands the command line to libFuzzer's driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@main struct GrammarFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) })
    }
}
#else
@main struct GrammarFuzz {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let count = bytes.count
            bytes.append(0) // a non-empty buffer always has a base address
            _ = bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { fuzz($0, count) } }
        }
    }
}
#endif
