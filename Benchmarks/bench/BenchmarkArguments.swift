import CommandLineArguments

/// The command line of `bench`. `--model`, `--threads`, `--gpu-layers`, `--rpc` and
/// `--tensor-split` are the declarations `ask` uses, so the benchmark finds the same model
/// through models.lock, defaults to the same threads and places the layers the same way.
/// The words after the options pick a child mode that sections start themselves.
struct BenchmarkArguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        tool: "bench", abstract: "Run the benchmark sections, print each table, and update Benchmarks/RESULTS.md.",
        discussion: [
            "SECTIONS, in run order: \(BenchmarkSection.allCases.map(\.rawValue).joined(separator: ", ")).",
            "",
            "MODES (started by the sections themselves):",
            "  bench engine-probe [--model FILE.gguf] [--threads N]: the engine section's child for Lantern's side.",
            "  bench reliability-writer INDEX SECONDS|endless, bench reliability-reader INDEX SECONDS: the reliability section's children.",
        ])

    /// A child mode and its words.
    enum Mode {
        case benchmark
        case engineProbe
        case reliabilityWriter(path: String, duration: String)
        case reliabilityReader(path: String, duration: String)
    }

    @Flag("quick", help: "Smaller sizes and fewer repetitions: every section in minutes, for a comparison in one session.") var quick: Bool
    @Option(.model) var model: String?
    @Option(.threads) var threads: Int?
    @OptionGroup var placement: PlacementOptions
    @Option(.chatTemplate) var chatTemplate: String?
    @Option("section", ArgumentType.choice.named("NAME"), help: "Run this section only (repeatable; default: every section).") var sections: [BenchmarkSection]
    @Option("json", .text("FILE"), help: "Also write the run's results as JSON to FILE.") var json: String?
    @Option("limit", .wholeNumber(atLeast: 1), help: "Ask at most N questions of each sample set (e2e, evaluation): a smoke run, not figures.")
    var limit: Int?
    @Argument("MODE", help: "A child mode (see MODES); none runs the benchmark.") var words: [String]

    /// The mode the words name, or a usage error naming the first word that names none.
    func mode() throws(UsageError) -> Mode {
        switch words.first {
        case nil: return .benchmark
        case "engine-probe" where words.count == 1: return .engineProbe
        case "reliability-writer" where words.count == 3: return .reliabilityWriter(path: words[1], duration: words[2])
        case "reliability-reader" where words.count == 3: return .reliabilityReader(path: words[1], duration: words[2])
        default:
            throw Self.usageError("unexpected argument '\(words.joined(separator: " "))'; the modes are engine-probe, reliability-writer INDEX SECONDS and reliability-reader INDEX SECONDS")
        }
    }

    /// The sections to run, in run order, each once.
    var chosenSections: [BenchmarkSection] { BenchmarkSection.allCases.filter { sections.isEmpty || sections.contains($0) } }
}
