import CommandLineArguments
import Evaluations
import Foundation
import LocalModel
import SearchIndex
import SearchTool
import TokenBudget

/// The command line of `eval`, parsed and checked. Every option but the thresholds has a
/// default, so a bare `eval` runs the shipped trail samples with the default model, and the
/// options it shares with `ask` (`--model`, `--guide`, `--format`, `--context`) are `ask`'s own
/// declarations: an evaluation measures what a user runs by default.
struct EvalArguments: ParsableCommand {
    static let configuration = CommandConfiguration(
        tool: "eval", abstract: "Measure how well a model answers questions from a corpus with the search tool.",
        discussion: [
            "Indexes the corpus (JSON Lines) into a temporary index, answers every sample with the model",
            "and the search tool, prints a progress line per sample (stderr), a table and the aggregate",
            "(stdout), and exits 1 when a --min threshold is missed, 2 on a usage or setup error.",
            "Decoding is greedy unless --seed is given.",
            "With --calls, it runs function-calling cases instead (tools as JSON Schema, a question, the",
            "acceptable calls) and scores each first call as a syntax tree: name, arguments and values.",
        ])

    @Option(.model) var model: String?
    @Option(.chatTemplate) var chatTemplate: String?
    @Option(.threads) var threads: Int?
    @Option("corpus", .text("FILE.jsonl"), help: "The corpus to index (default: the built-in trails corpus).") var corpus: String?
    @Option("folder", .text("DIR"), help: "Index this folder of documents instead, as 'ask --folder' does; samples name its files relative to it.")
    var folder: String?
    @Option("samples", .text("FILE.jsonl"),
            help: "The samples to answer (default: the built-in trails samples); 'paraphrases' is the shipped set of trail questions in other words than their notes; 'long-documents' is the shipped long-document set, over its own folder of PDFs and Markdown files.")
    var samples: String?
    @Option("calls", .text("FILE.jsonl"), help: "Run function-calling cases instead of samples; 'builtin' is the shipped set.") var calls: String?
    @OptionGroup var guide: GuideOptions
    @Option(.context) var context: ContextWindow?
    @Option(.answer) var answerStyle: GenerationOptions.AnswerStyle
    @Option(.embeddingModel) var embeddingModel: String?
    @Option("words-search", .choice,
            help: "How searches' words find items: hybrid (words and meaning, when there is an embedding model), full-text, or meaning alone; to compare them.")
    var wordsSearch: WordsSearch = .hybrid
    @OptionGroup var placement: PlacementOptions
    @Option("repeat", .wholeNumber(in: 1...1000), help: "How many times each sample runs.") var repetitions = 1
    @Option("seed", .wholeNumber(), help: "Sample with this seed instead of decoding greedily (each repetition adds one).")
    var seed: UInt32?
    @Option("report", .text("FILE.json"), help: "Also write the report as JSON to this file.") var report: String?
    @Option("min-coverage", .number(in: 0...1), help: "Exit 1 when the mean result coverage is below this share.") var minimumCoverage: Double?
    @Option("min-grounded", .number(in: 0...1), help: "Exit 1 when the grounded rate is below this share.") var minimumGrounded: Double?
    @Option("today", .day,
            help: "The day relative dates (\"this month\") resolve against, at noon local time (default: the real today, except with the shipped samples, whose date questions run as of \(SampleData.trailsSamplesToday), the day they were written).")
    var today: ReferenceDay?

    /// Whether the shipped long-document samples run (`--samples long-documents`).
    var longDocuments: Bool { samples == Self.longDocumentsName }
    static let longDocumentsName = "long-documents"

    /// What to index: `--folder`, the long-document folder for its samples, else the corpus file.
    var corpusSource: (corpus: EvaluationCorpus?, path: String) {
        if let folder { return (.folder(URL(fileURLWithPath: folder)), folder) }
        if longDocuments, corpus == nil { return (.folder(SampleData.longDocuments), SampleData.longDocuments.path) }
        return (nil, corpusURL.path)
    }
    var corpusURL: URL { corpus.map { URL(fileURLWithPath: $0) } ?? SampleData.trailsCorpus }
    var samplesURL: URL {
        switch samples {
        case nil: SampleData.trailsSamples
        case Self.longDocumentsName?: SampleData.longDocumentSamples
        case Self.paraphrasesName?: SampleData.paraphraseSamples
        case let path?: URL(fileURLWithPath: path)
        }
    }
    static let paraphrasesName = "paraphrases"
    /// Whether shipped trail samples run (the default set or the paraphrases), whose date
    /// questions resolve against the day they were written.
    var shippedTrailSamples: Bool { samples == nil || samples == Self.paraphrasesName }
    /// How both kinds of run load the model: its threads, chat layout and where its layers run.
    var modelConfiguration: LocalModel.Configuration {
        var configuration = LocalModel.Configuration(chatTemplate: chatTemplate)
        if let threads { configuration.threads = threads }
        placement.apply(to: &configuration)
        return configuration
    }
    var reportURL: URL? { report.map { URL(fileURLWithPath: $0) } }
    var callsURL: URL? { calls.map { $0 == "builtin" ? SampleData.functionCalls : URL(fileURLWithPath: $0) } }
    var thresholds: EvaluationThresholds { EvaluationThresholds(resultCoverage: minimumCoverage, groundedRate: minimumGrounded) }

    /// The day relative dates resolve against: `--today`, or the shipped samples' day when they
    /// run; nil is the real today.
    var referenceDay: ReferenceDay? { today ?? (shippedTrailSamples ? ReferenceDay(SampleData.trailsSamplesToday) : nil) }
}

extension ArgumentType where Element == ReferenceDay {
    /// A day as YYYY-MM-DD, read in the local time zone.
    static var day: Self {
        Self(valueName: "YYYY-MM-DD", requirement: "needs a date as YYYY-MM-DD, such as 2026-11-29",
             describe: { $0.text }, read: { ReferenceDay($0) })
    }
}
