import Foundation
import Testing

/// `LANTERN_GGML_CPU_VARIANT` makes ggml run another CPU backend variant, the way another
/// machine's CPU would; `ask info` says which one runs.
@Suite("CPU backend variants")
struct CPUVariantTests {
    func info(variant: String?) throws -> AskProcess.Result {
        var ask = try AskProcess()
        ask.environment["LANTERN_GGML_CPU_VARIANT"] = variant ?? ""
        return try ask.run(["info"])
    }

    /// The variant `ask info` reports, from its `cpu variant:` line.
    func reportedVariant(_ result: AskProcess.Result) -> String? {
        result.stdout.split(separator: "\n").first { $0.hasPrefix("cpu variant:") }
            .flatMap { $0.dropFirst("cpu variant:".count).split(separator: " ").first.map(String.init) }
    }

    @Test func theNamedVariantIsTheOneThatRuns() throws {
        let best = try info(variant: nil)
        #expect(best.status == 0, "\(best.stderr)")
        let bestVariant = try #require(reportedVariant(best), "no cpu variant line in: \(best.stdout)")
        // x64 runs on every x86-64 CPU; sse42 is the next one up and differs from x64
        for variant in ["x64", "sse42"] {
            let named = try info(variant: variant)
            #expect(named.status == 0, "\(named.stderr)")
            #expect(reportedVariant(named) == variant, "\(named.stdout)")
        }
        #expect(bestVariant != "x64", "ggml's best variant for this CPU should use more than plain x86-64")
    }

    @Test func anUnknownVariantIsATypedErrorThatListsTheInstalledOnes() throws {
        let result = try info(variant: "no-such-cpu")
        #expect(result.status == 1)
        #expect(result.stderr.contains("'no-such-cpu'") && result.stderr.contains("LANTERN_GGML_CPU_VARIANT"))
        #expect(result.stderr.contains("installed:") && result.stderr.contains("x64"))
        #expect(!result.killedBySignal)
    }
}
