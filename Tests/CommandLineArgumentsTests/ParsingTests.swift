@testable import CommandLineArguments
import Foundation
import SearchTool
import Testing
import TokenBudget

/// A command with one of each kind of declaration, the way `ask`, `eval` and `bench` declare theirs.
private struct Sample: ParsableCommand {
    static let configuration = CommandConfiguration(tool: "sample", name: "run", abstract: "A sample command.",
                                                    discussion: ["A closing note."], version: "sample 1.0")

    enum Speed: String, CaseIterable, Sendable { case slow, fast }

    @Option(.model) var model: String?
    @Option(.context) var context: ContextWindow?
    @Option(.threads) var threads: Int?
    @OptionGroup var guide: GuideOptions
    @Option("repeat", .wholeNumber(in: 1...1000), help: "How many runs.") var repetitions = 1
    @Option("share", .number(in: 0...1), help: "A share.") var share: Double?
    @Option("speed", .choice, help: "How fast.") var speed: Speed = .slow
    @Option("tag", .text("TAG"), help: "A tag (repeatable).") var tags: [String]
    @Option("pace", ArgumentType.choice.named("PACE"), help: "How fast, in short.") var pace: Speed?
    @Flag("json", help: "Print JSON.") var json: Bool
    @Argument("WORDS", help: "The words.") var words: [String]
}

/// A command that takes no positional words.
private struct Bare: ParsableCommand {
    static let configuration = CommandConfiguration(tool: "bare", abstract: "Nothing but a flag.")
    @Flag("quick", help: "Be quick.") var quick: Bool
}

private func parsed(_ words: [String]) throws -> Sample {
    guard case .command(let command) = try Sample.parse(words) else { throw UsageError("not a command: \(words)") }
    return command
}

private func usageError(_ words: [String]) -> UsageError? { usageError(Sample.self, words) }

private func usageError<C: ParsableCommand>(_ type: C.Type, _ words: [String]) -> UsageError? {
    do {
        _ = try C.parse(words)
        return nil
    } catch {
        return error
    }
}

@Suite struct ParsingTests {
    @Test func valuesAreTypedAndDefaultsApplyWhenAbsent() throws {
        let none = try parsed([])
        #expect(none.model == nil && none.context == nil && none.threads == nil && none.share == nil)
        #expect(none.repetitions == 1 && none.speed == .slow && none.tags.isEmpty && !none.json && none.words.isEmpty)
        #expect(none.guide.level == .focused && none.guide.format == .structured)

        let all = try parsed(["--model", "m.gguf", "--context=4k", "--threads", "2", "--guide", "complete", "--format", "compact",
                              "--repeat", "3", "--share", "0.5", "--speed", "fast", "--tag", "a", "what", "--tag=b", "--json", "now"])
        #expect(all.model == "m.gguf" && all.context == .k4 && all.threads == 2)
        #expect(all.guide.level == .complete && all.guide.format == .compact)
        #expect(all.repetitions == 3 && all.share == 0.5 && all.speed == .fast && all.json)
        #expect(all.tags == ["a", "b"])
        #expect(all.words == ["what", "now"])
    }

    @Test func doubleDashEndsOptionsAndALoneDashIsAWord() throws {
        let command = try parsed(["-", "--", "--json", "-h"])
        #expect(!command.json)
        #expect(command.words == ["-", "--json", "-h"])
    }

    @Test func helpAndVersionWinOverBadValuesAndAreOnlyOptionsBeforeDoubleDash() throws {
        guard case .help = try Sample.parse(["--repeat", "0", "-h"]) else { Issue.record("-h is help"); return }
        guard case .help = try Sample.parse(["--help", "extra"]) else { Issue.record("--help is help"); return }
        guard case .help = try Bare.parse(["extra", "--help"]) else { Issue.record("help before the extra-word check"); return }
        guard case .version = try Sample.parse(["--version"]) else { Issue.record("--version is the version"); return }
        #expect(usageError(Bare.self, ["--version"])?.message == "unknown option '--version'")
    }

    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus'"),
        (["-x"], "unknown option '-x'"),
        (["--json=yes"], "--json is a flag and takes no value"),
        (["--model"], "--model needs a value (FILE.gguf)"),
        (["--model", "--json"], "--model needs a value (FILE.gguf)"),
        (["--repeat", "2", "--repeat", "3"], "--repeat was given twice"),
    ])
    func wordsThatFitNoDeclarationAreErrorsWithTheUsage(words: [String], message: String) {
        let error = usageError(words)
        #expect(error?.message == message)
        #expect(error?.usage == Sample.usage)
    }

    @Test(arguments: [
        (["--threads", "0"], ThreadsOptionTests.requirement + ", not '0'"),
        (["--threads", "many"], ThreadsOptionTests.requirement + ", not 'many'"),
        (["--repeat", "1001"], "--repeat needs a whole number from 1 to 1000, not '1001'"),
        (["--share", "2"], "--share needs a number from 0 to 1, not '2'"),
        (["--context", "huge"], "--context must be 4k, 8k, 32k or a number of tokens, not 'huge'"),
        (["--context", "-3"], "--context must be 4k, 8k, 32k or a number of tokens, not '-3'"),
        (["--guide", "wide"], "--guide must be one of focused, complete, dynamic, not 'wide'"),
        (["--format", "tiny"], "--format must be one of compact, structured, not 'tiny'"),
        (["--speed", "warp"], "--speed must be one of slow, fast, not 'warp'"),
    ])
    func wordsThatAreNoValueNameTheOptionAndWhatItNeeds(words: [String], message: String) {
        let error = usageError(words)
        #expect(error?.message == message)
        #expect(error?.usage == nil)
    }

    @Test func aCommandWithoutPositionalsRefusesExtraWords() {
        let error = usageError(Bare.self, ["--quick", "extra"])
        #expect(error?.message == "unexpected argument 'extra'")
        #expect(error?.usage == "bare [--quick]")
    }

    @Test func usageAndHelpAreMadeFromTheDeclarations() {
        #expect(Sample.usage.hasPrefix("sample run [--model FILE.gguf] [--context 4k|8k|32k|N] [--threads N] [--guide focused|complete|dynamic] [--format compact|structured]"))
        #expect(Sample.usage.hasSuffix("[--tag TAG ...] [--pace PACE] [--json] [WORDS]"))
        #expect(usageError(["--pace", "warp"])?.message == "--pace must be one of slow, fast, not 'warp'")
        let help = Sample.help
        #expect(help.hasPrefix("OVERVIEW: A sample command.\n\nUSAGE: sample run ["))
        #expect(help.contains("ARGUMENTS:\n  WORDS  The words."))
        for line in ["How much query language the search tool offers (default: focused).",
                     "How tool results and descriptions read (default: structured).",
                     "How many runs (default: 1).", "How fast (default: slow).", "A tag (repeatable).",
                     "-h, --help", "--version", "Show the version."] {
            #expect(help.contains(line), "help lacks \(line)")
        }
        #expect(help.hasSuffix("\n\nA closing note."))
        #expect(!Bare.help.contains("--version"))
    }

    @Test func aUsageErrorReportsWhereToReadMore() {
        let error = Sample.usageError("something is off")
        #expect(error.report(for: Sample.configuration) == "sample: error: something is off\nUsage: \(Sample.usage)\nSee 'sample run --help'.\n")
        #expect(UsageError("bad").report(for: Bare.configuration) == "bare: error: bad\nSee 'bare --help'.\n")
    }

    @Test func outsideAParseEveryPropertyIsItsDefault() {
        let command = Sample()
        #expect(command.repetitions == 1 && command.speed == .slow && command.model == nil && command.failures.isEmpty)
    }
}
