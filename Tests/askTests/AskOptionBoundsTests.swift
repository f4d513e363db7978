import Foundation
import Testing

/// Every numeric option of `ask` and `eval` has an upper bound (issue 55, "every option
/// bounded"): a value past it is a usage error or a typed error, never a crash, a hang or a run
/// twenty times slower. Real processes, since the values that crashed would take the test
/// runner down with them.
@Suite("ask's and eval's options are bounded")
struct AskOptionBoundsTests {
    /// The machine's logical cores as `ask` counts them (the cap is a multiple of them).
    private static let cores = ProcessInfo.processInfo.activeProcessorCount

    @Test(arguments: ["100000", "2000000000", "512", "99999999999999999999"])
    func threadsPastTheCapAreAUsageErrorNamingTheCapAndTheCores(threads: String) throws {
        let result = try AskProcess().run(["--threads", threads, "Which trails are in Utah?"], timeout: 60)
        #expect(!result.killedBySignal, "ask --threads \(threads) ended by a signal: \(result.stderr.suffix(400))")
        #expect(result.status == 2, "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("--threads needs a whole number from 1 to "), "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("\(Self.cores) logical cores"), "\(result.stderr.suffix(400))")
        #expect(!result.stderr.contains("Loading"))
    }

    @Test func evalRefusesTheSameThreads() throws {
        var eval = try AskProcess()
        eval.executable = EvalCallsTests.eval
        let result = try eval.run(["--threads", "100000", "--calls", "builtin"], timeout: 60)
        #expect(!result.killedBySignal, "\(result.stderr.suffix(400))")
        #expect(result.status == 2, "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("--threads needs a whole number from 1 to "), "\(result.stderr.suffix(400))")
    }

    @Test func aContextInThousandsPastWhatAnIntegerHoldsIsAUsageError() throws {
        let result = try AskProcess().run(["--context", "9007199254740993k", "Which trails are in Utah?"], timeout: 60)
        #expect(!result.killedBySignal, "\(result.stderr.suffix(400))")
        #expect(result.status == 2, "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("--context must be 4k, 8k, 32k or a number of tokens"), "\(result.stderr.suffix(400))")
    }

    @Test func theLargestMaxTokensEndsInTheBudgetErrorNotATrap() throws {
        let result = try AskProcess().run(["--max-tokens", "\(Int.max)", "Which trails are in Utah?"], timeout: 120)
        #expect(!result.killedBySignal, "\(result.stderr.suffix(400))")
        #expect(result.status == 1, "\(result.stderr.suffix(400))")
        #expect(result.stderr.contains("the reserved answer alone is"), "\(result.stderr.suffix(400))")
    }
}
