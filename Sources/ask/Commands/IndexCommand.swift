/// `ask index`: builds or refreshes a named index from a folder or a corpus, so later questions
/// can use `--index NAME`.
struct IndexCommand: Command {
    static let spec = CommandSpec(
        name: "index", abstract: "Build or refresh a named index from a folder of documents or a JSON Lines corpus.",
        positional: nil,
        options: [
            .value("folder", "DIR", "Index the documents in a folder (text, Markdown, code, HTML, PDF)."),
            .value("corpus", "FILE.jsonl", "Index a corpus: one JSON object per line (id, domain, contentType, attributes, custom)."),
            .value("index", "NAME", "The index's name (default: the folder's or file's name)."),
        ],
        discussion: ["Indexes live in $XDG_DATA_HOME/lantern/indexes/ (~/.local/share/lantern/indexes/ when unset).",
                     "Then ask with: ask --index NAME \"your question\""])

    let selection: DataSelection

    init(_ arguments: ParsedArguments) throws(UsageError) {
        selection = try DataSelection.from(arguments, requireSource: true)
    }

    func run() async throws -> Int32 {
        let opened = try await IndexOpener().open(selection)
        let path = opened.index.fileURL.path
        let what = opened.summary ?? "already up to date"
        Terminal.output("Index '\(opened.name)': \(what); \(opened.itemCount) items in \(path)\n")
        return 0
    }
}
