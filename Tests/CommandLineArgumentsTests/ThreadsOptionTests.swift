@testable import CommandLineArguments
import Foundation
import LocalModel
import Testing

/// `--threads` has the library's cap (`LocalModel.Configuration.maximumThreads`) as its upper
/// bound, and its usage error names the cap and the machine's logical cores (issue 55: 100,000
/// threads segfaulted, 512 to 10,000 hung, 64 on 2 cores ran ten times slower).
@Suite struct ThreadsOptionTests {
    private struct Threaded: ParsableCommand {
        static let configuration = CommandConfiguration(tool: "threaded", abstract: "Takes --threads.")
        @Option(.threads) var threads: Int?
    }

    static let maximum = LocalModel.Configuration.maximumThreads
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// What `--threads` needs, as the usage error says it.
    static var requirement: String {
        let reason = maximum < LocalModel.Configuration.threadsPerCore * cores ? "ggml runs at most \(maximum); this machine has \(cores) logical cores"
            : "\(LocalModel.Configuration.threadsPerCore) per logical core, and this machine has \(cores) logical cores"
        return "--threads needs a whole number from 1 to \(maximum) (\(reason))"
    }

    private func message(_ words: [String]) -> String? {
        do {
            _ = try Threaded.parse(words)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func theCapIsAFewThreadsPerCoreAndNeverPastGGMLsLimit() {
        #expect(Self.maximum == min(LocalModel.Configuration.threadsPerCore * Self.cores, 512))
        #expect(Self.maximum >= min(Self.cores, 512))
    }

    @Test(arguments: ["0", "-1"] + ["\(maximum + 1)", "100000", "2000000000", "\(Int.max)", "99999999999999999999"])
    func aCountOutsideTheBoundsIsAUsageErrorNamingTheCapAndTheCores(word: String) {
        #expect(message(["--threads", word]) == "\(Self.requirement), not '\(word)'")
    }

    @Test func theCapItselfAndOneAreAccepted() throws {
        for count in [1, Self.maximum] {
            guard case .command(let command) = try Threaded.parse(["--threads", "\(count)"]) else { Issue.record("not a command"); return }
            #expect(command.threads == count)
        }
    }

    @Test func theHelpSaysHowManyPerCore() {
        #expect(Threaded.help.contains("at most \(LocalModel.Configuration.threadsPerCore) per logical core"))
    }
}
