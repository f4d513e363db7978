// Fuzz target: the command-line layer `ask`, `eval` and `bench` share (CommandLineArguments).
// On any argument vector, parsing returns the command, its help or version, or a usage error,
// and never traps; a command it returns holds every value within its declared bounds (threads
// within LocalModel.Configuration.maximumThreads, a window of 1 token or more, ...), and a
// usage error names what was wrong. The commands' own declarations live in the executables
// (Sources/ask, Sources/eval), which nothing can import, so the commands here declare the
// same options the same way: the shared declarations (`.threads`, `.context`, `.gpuLayers`,
// ...) and option groups, and the inline ones ask and eval write (`--max-tokens`, `--repeat`,
// `--seed`, `--min-coverage`). FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or
// replays files given as arguments.
//
// The input is the argument vector, words separated by NUL bytes as in argv. A word that
// starts with a byte from 0x80 to 0xBF (a continuation byte, which starts no UTF-8 text)
// stands for a known spelling (an option of the commands, or a number at an edge) followed by
// the rest of the word, so one byte reaches any of them and the fuzzer spends its time on the
// values behind the options instead of on spelling "--threads".
import CommandLineArguments
import Foundation
import FuzzDriver
import LocalModel
import TokenBudget

/// `ask [QUESTION]`'s options, declared as Sources/ask/Commands/QuestionCommand.swift declares them.
struct QuestionLike: ParsableCommand {
    static let configuration = CommandConfiguration(tool: "ask", abstract: "Fuzzed ask.", version: "fuzz")
    @Option(.model) var model: String?
    @Option(.context) var context: ContextWindow?
    @OptionGroup var placement: PlacementOptions
    @Option(.threads) var threads: Int?
    @Option(.chatTemplate) var chatTemplate: String?
    @Option("corpus", .text("FILE.jsonl"), help: "A corpus.") var corpus: String?
    @Option(.embeddingModel) var embeddingModel: String?
    @OptionGroup var guide: GuideOptions
    @Option("image", .text("FILE[:label]"), help: "An image (repeatable).") var images: [String]
    @Option("max-tokens", .wholeNumber(atLeast: 1), help: "Most tokens per round.") var maximumTokens: Int?
    @Option(.answer) var answerStyle: GenerationOptions.AnswerStyle
    @Flag("json", help: "JSON.") var json: Bool
    @Argument("QUESTION", help: "The question.") var words: [String]
}

/// `eval`'s numeric options, declared as Sources/eval/EvalArguments.swift declares them.
struct EvalLike: ParsableCommand {
    static let configuration = CommandConfiguration(tool: "eval", abstract: "Fuzzed eval.")
    @Option(.threads) var threads: Int?
    @Option(.context) var context: ContextWindow?
    @OptionGroup var placement: PlacementOptions
    @Option("repeat", .wholeNumber(in: 1...1000), help: "Runs per sample.") var repetitions = 1
    @Option("seed", .wholeNumber(), help: "A seed.") var seed: UInt32?
    @Option("min-coverage", .number(in: 0...1), help: "A share.") var minimumCoverage: Double?
    @Option("min-grounded", .number(in: 0...1), help: "A share.") var minimumGrounded: Double?
}

/// The spellings a word's first byte from 0x80 to 0xBF picks (byte - 0x80; at most 64 of them).
let spellings = [
    "--threads", "--context", "--max-tokens", "--gpu-layers", "--rpc", "--tensor-split", "--repeat", "--seed",
    "--min-coverage", "--model", "--image", "--answer", "--guide", "--format", "--json", "--help", "--version", "--",
    "--threads=", "--context=", "--max-tokens=", "--gpu-layers=", "--tensor-split=", "--rpc=",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616", "2147483648",
    "4294967296", "9007199254740993k", "9007199254740992k", "1e400", "-0", "0", "1", "nan", "inf", "0x10",
    "\(LocalModel.Configuration.maximumThreads)", "\(LocalModel.Configuration.maximumThreads + 1)", "100000", "4k", "32K",
    "localhost:0", "[::1]:50052", "host:65536", "1,1", ",", "-1", "١٢", "𝟙",
]

/// The argument vector the input stands for.
func words(of bytes: UnsafeBufferPointer<UInt8>) -> [String] {
    bytes.split(separator: 0, omittingEmptySubsequences: false).map { chunk in
        guard let first = chunk.first, (0x80...0xBF).contains(first) else { return String(decoding: chunk, as: UTF8.self) }
        return spellings[Int(first - 0x80) % spellings.count] + String(decoding: chunk.dropFirst(), as: UTF8.self)
    }
}

/// A property of the input, reported as a crash when broken.
func check(_ condition: Bool, _ message: @autoclosure () -> String, _ words: [String]) {
    FuzzDriver.require(condition, "cli-options", message(), words.joined(separator: " "))
}

/// Parses `words` as `Command`; the command when it is one, after checking the error or help.
func parse<Command: ParsableCommand>(_ words: [String], as command: Command.Type) -> Command? {
    do {
        switch try Command.parse(words) {
        case .command(let command): return command
        case .help: check(Command.help.hasPrefix("OVERVIEW: "), "the help does not start with its overview", words)
        case .version: check(Command.configuration.version != nil, "--version parsed for a command without one", words)
        }
    } catch {
        check(!error.message.isEmpty, "a usage error without a message", words)
        check(error.report(for: Command.configuration).hasPrefix("\(Command.configuration.tool): error: "), "a report without its tool", words)
    }
    return nil
}

func checkPlacement(_ placement: PlacementOptions, _ words: [String]) {
    check((placement.gpuLayers ?? 0) >= 0, "negative --gpu-layers", words)
    check(placement.tensorSplit?.allSatisfy { $0 >= 0 && Float($0).isFinite } ?? true, "a negative --tensor-split proportion, or one no Float holds", words)
    check(placement.rpcServers?.isEmpty != true, "--rpc read as no server", words)
    var configuration = LocalModel.Configuration()
    placement.apply(to: &configuration)
    check(configuration.gpuLayers >= 0, "placement gave negative GPU layers", words)
}

func checkThreadsAndWindow(_ threads: Int?, _ context: ContextWindow?, _ words: [String]) {
    if let threads { check((1...LocalModel.Configuration.maximumThreads).contains(threads), "--threads \(threads) past its bounds", words) }
    if let context { check(context.tokens > 0, "--context of \(context.tokens) tokens", words) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let words = words(of: UnsafeBufferPointer(start: data, count: size))
    if let ask = parse(words, as: QuestionLike.self) {
        checkThreadsAndWindow(ask.threads, ask.context, words)
        checkPlacement(ask.placement, words)
        check((ask.maximumTokens ?? 1) >= 1, "--max-tokens below 1", words)
    }
    if let eval = parse(words, as: EvalLike.self) {
        checkThreadsAndWindow(eval.threads, eval.context, words)
        checkPlacement(eval.placement, words)
        check((1...1000).contains(eval.repetitions), "--repeat \(eval.repetitions) past its bounds", words)
        for share in [eval.minimumCoverage, eval.minimumGrounded].compactMap({ $0 }) {
            check((0...1).contains(share), "a share of \(share)", words)
        }
    }
    return 0
}

@main struct CLIOptionsFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
