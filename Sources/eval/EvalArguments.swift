import Evaluations
import Foundation
import SearchTool
import TokenBudget

/// The command line of `eval`, parsed and checked. Every flag but the thresholds has a default,
/// so a bare `eval` runs the shipped trail samples with the default model.
struct EvalArguments: Sendable {
    static let defaultModelFile = "SmolLM2-135M-Instruct.Q4_1.gguf"

    static let usage = """
    usage: eval [--model FILE] [--corpus FILE] [--samples FILE] [--guide focused|complete|dynamic]
                [--format compact|structured] [--context 4k|8k|32k|N] [--repeat N] [--seed N]
                [--report out.json] [--min-coverage X] [--min-grounded X] [--today YYYY-MM-DD]

    Indexes the corpus (JSON Lines) into a temporary index, answers every sample with the model
    and the search tool, prints a progress line per sample (stderr), a table and the aggregate
    (stdout), and exits 1 when a --min threshold (0...1) is missed, 2 on a usage or setup error.
    Defaults: the model models/\(defaultModelFile) (or in $LANTERN_MODELS_DIR), the built-in
    trails corpus and samples, --guide focused, --format compact, the model's window, greedy
    decoding (a --seed samples), --repeat 1.
    --today sets the day relative dates ("this month") resolve against, at noon local time.
    It defaults to the real today, except with the shipped samples (no --samples), whose date
    questions were written on \(SampleData.trailsSamplesToday): they run as of that day.
    """

    var model: URL
    var corpus: URL
    var samples: URL
    var guide: SearchSetup.GuideLevel = .focused
    var format: FormatLevel = .compact
    var contextWindow: ContextWindow?
    var repetitions = 1
    var seed: UInt32?
    var report: URL?
    var thresholds = EvaluationThresholds()
    /// The reference day as given (YYYY-MM-DD), or the shipped samples' day; nil is the real today.
    var today: String?
    /// Noon of `today` in the local time zone (the one the runner reads the index's dates in).
    var now: Date?
    var showsHelp = false

    init(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws(EvalArgumentError) {
        var model: String?
        var corpus: String?
        var samples: String?
        var remaining = arguments[...]
        func value(_ flag: String) throws(EvalArgumentError) -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else { throw .missingValue(flag) }
            return next
        }
        func share(_ flag: String) throws(EvalArgumentError) -> Double {
            let text = try value(flag)
            guard let number = Double(text), (0...1).contains(number) else { throw .invalidValue(flag, text, expected: "a number from 0 to 1") }
            return number
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--help", "-h": showsHelp = true
            case "--model": model = try value(flag)
            case "--corpus": corpus = try value(flag)
            case "--samples": samples = try value(flag)
            case "--guide":
                let text = try value(flag)
                guard let guide = SearchSetup.GuideLevel(rawValue: text) else { throw .invalidValue(flag, text, expected: "focused, complete or dynamic") }
                self.guide = guide
            case "--format":
                let text = try value(flag)
                switch text {
                case "compact": format = .compact
                case "structured": format = .structured
                default: throw .invalidValue(flag, text, expected: "compact or structured")
                }
            case "--context":
                let text = try value(flag)
                guard let window = ContextWindow(parsing: text) else { throw .invalidValue(flag, text, expected: "4k, 8k, 32k or a token count") }
                contextWindow = window
            case "--repeat":
                let text = try value(flag)
                guard let count = Int(text), (1...1000).contains(count) else { throw .invalidValue(flag, text, expected: "a whole number from 1 to 1000") }
                repetitions = count
            case "--seed":
                let text = try value(flag)
                guard let seed = UInt32(text) else { throw .invalidValue(flag, text, expected: "a whole number from 0 to 4294967295") }
                self.seed = seed
            case "--report": report = URL(fileURLWithPath: try value(flag))
            case "--min-coverage": thresholds.resultCoverage = try share(flag)
            case "--min-grounded": thresholds.groundedRate = try share(flag)
            case "--today":
                let text = try value(flag)
                guard let day = ReferenceDay(text) else { throw .invalidValue(flag, text, expected: "a date as YYYY-MM-DD, such as 2026-11-29") }
                today = text
                now = day.noon
            default: throw .unknownFlag(flag)
            }
        }
        self.model = try Self.locateModel(model, environment: environment)
        self.corpus = corpus.map { URL(fileURLWithPath: $0) } ?? SampleData.trailsCorpus
        self.samples = samples.map { URL(fileURLWithPath: $0) } ?? SampleData.trailsSamples
        if today == nil, samples == nil {
            today = SampleData.trailsSamplesToday
            now = ReferenceDay(SampleData.trailsSamplesToday)?.noon
        }
    }

    /// `--model` as given, or the default model in $LANTERN_MODELS_DIR or ./models.
    private static func locateModel(_ requested: String?, environment: [String: String]) throws(EvalArgumentError) -> URL {
        if let requested { return URL(fileURLWithPath: (requested as NSString).expandingTildeInPath) }
        let folders = [environment["LANTERN_MODELS_DIR"].flatMap { $0.isEmpty ? nil : $0 }, "models"].compactMap { $0 }
        let candidates = folders.map { URL(fileURLWithPath: $0).appendingPathComponent(defaultModelFile) }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) { return found }
        throw .defaultModelMissing(looked: candidates.map(\.path))
    }
}
