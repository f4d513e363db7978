@testable import CommandLineArguments
import Testing
import TokenBudget

/// The numeric options beside `--threads` (ThreadsOptionTests) keep their values to what the
/// library can use: a proportion llama.cpp receives as a Float must be finite, and a context
/// counted in thousands must fit an Int.
@Suite struct NumericOptionBoundsTests {
    private struct Placed: ParsableCommand {
        static let configuration = CommandConfiguration(tool: "placed", abstract: "Takes placement options.")
        @OptionGroup var placement: PlacementOptions
        @Option(.context) var context: ContextWindow?
    }

    private func message(_ words: [String]) -> String? {
        do {
            _ = try Placed.parse(words)
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: ["inf", "1,inf", "1e400", "1e39", "nan", "-1", "1,,1"])
    func aProportionThatIsNoFiniteFloatIsAUsageError(word: String) {
        #expect(message(["--tensor-split", word]) == "--tensor-split needs non-negative numbers joined by commas, such as 1,1 or 3,1, not '\(word)'")
    }

    @Test func finiteProportionsAreRead() throws {
        guard case .command(let command) = try Placed.parse(["--tensor-split", "3,1,0.5,1e38"]) else { Issue.record("not a command"); return }
        #expect(command.placement.tensorSplit == [3, 1, 0.5, 1e38])
    }

    @Test(arguments: ["9007199254740992k", "\(Int.max / 1024 + 1)k", "0k", "-1k"])
    func aContextInThousandsPastAnIntOrBelowOneIsAUsageError(word: String) {
        #expect(message(["--context", word]) == "--context must be 4k, 8k, 32k or a number of tokens, not '\(word)'")
    }

    @Test func theLargestContextInThousandsIsRead() throws {
        guard case .command(let command) = try Placed.parse(["--context", "\(Int.max / 1024)k"]) else { Issue.record("not a command"); return }
        #expect(command.context?.tokens == Int.max / 1024 * 1024)
    }
}
