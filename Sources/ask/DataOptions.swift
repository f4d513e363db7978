import CommandLineArguments
import Lantern

/// `--corpus`, `--folder`, `--index` (and `--embedding-model`): the data a question runs over, for `ask` and `ask budget`
/// (`ask index` declares its own, worded for building).
struct DataOptions: ParsableArguments {
    @Option("corpus", .text("FILE.jsonl"), help: "Ask about a JSON Lines corpus (indexed on first use, again when it changes).")
    var corpus: String?
    @Option("folder", .text("DIR"), help: "Ask about a folder of documents (indexed incrementally).")
    var folder: String?
    @Option("index", .text("NAME"), help: "Ask about an index built with 'ask index' (default: the built-in sample corpus).")
    var index: String?
    @Option(.embeddingModel) var embeddingModel: String?

    /// Opens what these options name, with their embedding model.
    var opener: IndexOpener { .terminal(embeddingModel: embeddingModel) }

    /// The options given, as typed ("--corpus"), in declaration order.
    var given: [String] {
        [("--corpus", corpus), ("--folder", folder), ("--index", index)].compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// The data these options name; `--index` with `--corpus` or `--folder` names the index to build.
    func selection() throws(UsageError) -> DataSelection {
        try DataSelection.from(corpus: corpus, folder: folder, index: index)
    }

    /// The data to ask about or serve, of which at most one source may be named: there,
    /// `--index` with `--corpus` is more likely a slip than a name for the index to build.
    /// `usage` is the command's, for the error.
    func soleSelection(usage: String) throws(UsageError) -> DataSelection {
        if given.count > 1 {
            throw UsageError("\(given[0]) and \(given[1]) cannot be used together; pick one source of data", usage: usage)
        }
        return try selection()
    }
}
