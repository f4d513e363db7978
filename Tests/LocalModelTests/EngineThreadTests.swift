import Foundation
import Testing
@testable import LocalModel

/// Every llama.cpp call that may open an OpenMP region (loading, making a context, decoding)
/// runs on the one engine thread, so libgomp keeps one worker team in the process.
@Suite("The engine thread")
struct EngineThreadTests {
    struct Refused: Error, Equatable { let reason: String }

    /// Whether the calling OS thread is the one named "lantern.engine" (the name ps and perf show).
    static func onEngineThread() -> Bool {
        let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        return name?.trimmingCharacters(in: .newlines) == "lantern.engine"
    }

    @Test func workRunsThereAndItsValueOrTypedErrorComesBack() throws {
        #expect(!Self.onEngineThread())
        #expect(EngineThread.shared.run { Self.onEngineThread() })
        #expect(throws: Refused(reason: "no")) {
            try EngineThread.shared.run { () throws(Refused) -> Int in throw Refused(reason: "no") }
        }
    }

    @Test func workAskedForFromTheEngineThreadRunsAtOnceInsteadOfWaitingForItself() {
        let nested = EngineThread.shared.run { EngineThread.shared.run { Self.onEngineThread() } }
        #expect(nested)
    }
}
