import Foundation

/// The data shipped with Lantern: a hiking-trails notebook (the built-in sample corpus that
/// `ask` indexes on first run) and evaluation samples over it. See Samples/README.md.
public enum SampleData {
    /// trails.jsonl, in the corpus format `ask --corpus` and the evaluations read.
    public static var trailsCorpus: URL { resource("trails", "jsonl") }
    /// trails-samples.jsonl: questions with expected identifiers, facts and tool trajectories.
    public static var trailsSamples: URL { resource("trails-samples", "jsonl") }
    /// paraphrase-samples.jsonl: questions over the trails that share no content word with the
    /// notes they expect, so only a search by meaning finds them.
    public static var paraphraseSamples: URL { resource("paraphrase-samples", "jsonl") }
    /// long-documents/: generated PDFs and Markdown files of 20–100 pages with facts placed deep
    /// inside (scripts/make-long-documents.py), indexed as a folder.
    public static var longDocuments: URL { resource("long-documents", nil) }
    /// long-documents-samples.jsonl: questions that need those facts, with the page or line of each.
    public static var longDocumentSamples: URL { resource("long-documents-samples", "jsonl") }
    /// function-calls.jsonl: function-calling cases over JSON Schema tools (`FunctionCallCaseReader`).
    public static var functionCalls: URL { resource("function-calls", "jsonl") }
    /// The day `trailsSamples` was written on (YYYY-MM-DD): its "this year", "this month" and
    /// "last month" questions expect the trails finished relative to it, so `eval` pins relative
    /// dates to this day when it runs the shipped samples (another day changes their answers).
    public static let trailsSamplesToday = "2026-11-29"

    private static func resource(_ name: String, _ type: String?) -> URL {
        // Bundle.module names the resources folder beside the executable; it is always built
        // with the package, so a missing file means a broken installation, reported by the reader.
        Bundle.module.url(forResource: name, withExtension: type, subdirectory: "Samples")
            ?? Bundle.module.bundleURL.appendingPathComponent("Samples/" + name + (type.map { "." + $0 } ?? ""))
    }
}
