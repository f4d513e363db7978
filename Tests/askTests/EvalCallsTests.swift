import Foundation
import Testing

/// `eval --calls FILE`, the function-calling evaluation, as a user runs it: the real binary and
/// the default model. It asserts what Lantern guarantees (the run ends, every call is valid, the
/// report adds up), never which call the model picks.
@Suite struct EvalCallsTests {
    static var eval: URL { AskProcess.binary.deletingLastPathComponent().appendingPathComponent("eval") }

    @Test func aFunctionCallingRunReportsItsCases() throws {
        let folder = try TemporaryFolder()
        let cases = folder.url.appendingPathComponent("calls.jsonl")
        let shipped = try String(contentsOf: AskProcess.repository.appendingPathComponent("Sources/Evaluations/Samples/function-calls.jsonl"), encoding: .utf8)
        try (shipped.split(separator: "\n").prefix(2).joined(separator: "\n") + "\n").write(to: cases, atomically: true, encoding: .utf8)
        var eval = try AskProcess()
        eval.executable = Self.eval
        let result = try eval.run(["--calls", cases.path, "--report", folder.url.appendingPathComponent("report.json").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("schemas converted: 2 of 2"), "\(result.stdout)")
        #expect(result.stdout.contains("valid calls: 2 of 2"), "\(result.stdout)")
        #expect(result.stdout.contains("tokens and time: the call round only"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("report.json").path))
    }

    @Test func aMissingCasesFileIsAUsageErrorNamingIt() throws {
        var eval = try AskProcess()
        eval.executable = Self.eval
        let result = try eval.run(["--calls", "/nonexistent/calls.jsonl"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/calls.jsonl"), "\(result.stderr)")
    }
}
