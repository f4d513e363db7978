import Foundation
import Testing

/// The prompt cache through the binary: a second `ask` process loads the system turn's state
/// the first one saved and answers as it did; a damaged state is a note and the same answer;
/// `--no-prompt-cache` writes nothing. Told apart by the token counts `--json` reports, never
/// by timing. Whether the model answers or ends at the round limit is its choice: either way,
/// every run must end as the cold one did.
@Suite(.serialized) struct AskPromptCacheTests {
    static let question = ["--json", "--threads", "1", "--max-tokens", "120", "Which trails in California have water features?"]

    /// What must not change between a cold and a warm run: the exit, the answer, its sources and
    /// the trace (not the timings or the token counts).
    struct Ending: Equatable {
        let status: Int32
        let answer: String?
        let sources: String?
        let trace: String?

        init(_ result: AskProcess.Result, report: [String: Any]?) {
            status = result.status
            answer = report?["answer"] as? String
            func text(_ value: Any?) -> String? {
                value.flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }.map { String(decoding: $0, as: UTF8.self) }
            }
            sources = text(report?["sources"])
            trace = text(report?["trace"])
        }
    }

    func run(_ ask: AskProcess, _ extra: [String] = []) throws -> (ending: Ending, report: [String: Any]?, stderr: String) {
        let result = try ask.run(AskProcess.modelArguments + extra + Self.question)
        #expect(result.status == 0 || AskModelTests.endedAtTheRoundLimit(result), "\(result.stderr)")
        let report = result.status == 0 ? try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] : nil
        return (Ending(result, report: report), report, result.stderr)
    }

    func states(_ ask: AskProcess) -> [URL] {
        let folder = ask.cacheHome.appendingPathComponent("lantern/prompt-states")
        return ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []).filter { $0.pathExtension == "kv" }
    }

    func tokens(_ report: [String: Any]?, _ key: String) -> Int? { (report?["tokens"] as? [String: Any])?[key] as? Int }

    @Test func aSecondProcessStartsFromTheSavedSystemTurnAndADamagedOneIsANote() throws {
        var ask = try AskProcess()
        ask.cacheHome = ask.dataHome.url.appendingPathComponent("cache")
        let cold = try run(ask, ["--no-prompt-cache"])
        #expect(!FileManager.default.fileExists(atPath: ask.cacheHome.path), "--no-prompt-cache wrote into the cache")

        let saving = try run(ask)
        #expect(saving.ending == cold.ending)
        #expect(states(ask).count == 1)

        let warm = try run(ask)
        #expect(warm.ending == cold.ending)
        if let report = warm.report {
            let restored = try #require(tokens(report, "restored"))
            #expect(restored > 100, "the system turn's tokens were decoded again: \(report["tokens"] ?? "")")
            #expect(tokens(saving.report, "restored") == 0)
            #expect((report["notes"] as? [String])?.isEmpty == true)
        }

        let state = try #require(states(ask).first)
        try Data(repeating: 0x5a, count: 4096).write(to: state)
        let damaged = try run(ask)
        #expect(damaged.ending == cold.ending)
        #expect(damaged.stderr.contains("ask: note: the saved prompt state \(state.path) was unusable"), "\(damaged.stderr)")
        if let report = damaged.report {
            #expect(tokens(report, "restored") == 0)
            #expect((report["notes"] as? [String])?.count == 1)
        }
    }
}
