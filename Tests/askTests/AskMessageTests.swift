import Foundation
import Testing

/// Messages that used to mislead (issue 28, defect 10): each says what was wrong and what to
/// do, and under --json stdout still carries one JSON object.
@Suite("ask's messages for mistakes")
struct AskMessageTests {
    @Test func aLoneWordThatIsNoCommandIsRefusedWithTheNearestOne() throws {
        let typo = try AskProcess().run(["infp"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("'infp' is not a command") && typo.stderr.contains("did you mean 'info'?"))
        #expect(typo.stdout.isEmpty)

        let unknown = try AskProcess().run(["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'frobnicate' is not a command") && !unknown.stderr.contains("did you mean"))
        #expect(unknown.stderr.contains("ask \"frobnicate?\""))
    }

    @Test func anEmptyQuestionIsAUsageErrorBeforeTheModelLoads() throws {
        for question in ["", "   "] {
            let result = try AskProcess().run([question])
            #expect(result.status == 2)
            #expect(result.stderr.contains("the question is empty"))
            #expect(!result.stderr.contains("Loading"))
        }
    }

    @Test func aZeroThatIsRefusedIsNotCalledAllowed() throws {
        for (flag, need) in [("--threads", "needs a whole number from 1 to "), ("--max-tokens", "needs a whole number of 1 or more")] {
            let result = try AskProcess().run([flag, "0", "Which trails are in Utah?"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("\(flag) \(need)") && result.stderr.contains("not '0'"), "\(result.stderr)")
        }
        let gpu = try AskProcess().run(["--gpu-layers", "-1", "Which trails are in Utah?"])
        #expect(gpu.stderr.contains("--gpu-layers needs a whole number of 0 or more"))
    }

    @Test func aWindowBeyondTheTrainedOneNamesTheFlagThatFixesIt() throws {
        let result = try AskProcess().run(["--context", "32k", "Which trails are in Utah?"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--context 32768 is larger than the 8192 tokens"))
        #expect(result.stderr.contains("use --context 8192 or less"))
        #expect(!result.stderr.contains("allow"))
    }

    @Test func errorsUnderJSONAreAJSONObjectOnStdout() throws {
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["--json", "--index", "no-such-index", "Which trails are in Utah?"], 1, "no index named 'no-such-index'"),
            (["--json", "--threads", "zero", "Which trails are in Utah?"], 2, "--threads needs a whole number"),
        ]
        for (arguments, status, says) in cases {
            let result = try AskProcess().run(arguments)
            #expect(result.status == status)
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let error = try #require(object?["error"] as? [String: Any], "stdout: \(result.stdout)")
            #expect((error["message"] as? String)?.contains(says) == true)
            #expect(error["exitCode"] as? Int == Int(status))
        }
    }
}
