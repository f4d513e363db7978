import Foundation
import Testing

/// `ask --json` with a model whose header is real and whose weights are random bytes: its
/// scores are NaN, so no token a grammar allows can be chosen. That is an error on stderr and
/// exit status 1 — not llama.cpp aborting the process (`llama-grammar.cpp: fatal error`) with
/// gdb's backtrace on stdout, where the JSON goes.
@Suite("ask with random weights fails cleanly")
struct AskDamagedWeightsTests {
    @Test func jsonOutputStaysCleanWhenTheWeightsAreGarbage() throws {
        let ask = try AskProcess()
        var data = try Data(contentsOf: AskProcess.defaultModel)
        // the header (metadata, vocabulary, tensor table) is the first 2 MB of the default
        // model's 98; everything from a tenth of the file on is tensor data
        var generator = SystemRandomNumberGenerator()
        data.withUnsafeMutableBytes { bytes in
            var offset = bytes.count / 10
            while offset + 8 <= bytes.count {
                bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
        }
        let file = ask.dataHome.url.appendingPathComponent("random-weights.gguf")
        try data.write(to: file)
        let result = try ask.run(["--model", file.path, "--json", "Which trails have water features?"])
        #expect(!result.killedBySignal, "\(result.stderr.suffix(600))")
        #expect(result.status == 1, "\(result.stderr.suffix(600))")
        let stdout = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if !stdout.isEmpty {
            #expect((try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) is [String: Any], "stdout is not one JSON object: \(stdout.prefix(600))")
        }
        #expect(!result.stdout.contains("#0 "), "a backtrace on stdout: \(result.stdout.prefix(600))")
        #expect(result.stderr.contains("NaN"), "\(result.stderr.suffix(600))")
    }
}
