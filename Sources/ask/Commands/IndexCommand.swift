import CommandLineArguments
import Foundation
import Lantern
import SearchIndex

/// `ask index`: builds or refreshes a named index from a folder or a corpus, so later questions
/// can use `--index NAME`; or checks (and repairs) an index's word shortlists against its
/// full-text index.
struct IndexCommand: Command {
    static let configuration = CommandConfiguration(
        tool: "ask", name: "index", abstract: "Build or refresh a named index from a folder of documents or a JSON Lines corpus.",
        discussion: ["Indexes live in $XDG_DATA_HOME/lantern/indexes/ (~/.local/share/lantern/indexes/ when unset).",
                     "Then ask with: ask --index NAME \"your question\""])

    @Option("folder", .text("DIR"), help: "Index the documents in a folder (text, Markdown, code, HTML, PDF).") var folder: String?
    @Option("corpus", .text("FILE.jsonl"), help: "Index a corpus: one JSON object per line (id, domain, contentType, attributes, custom).")
    var corpus: String?
    @Option("index", .text("NAME"), help: "The index's name (default: the folder's or file's name).") var index: String?
    @Option(.embeddingModel) var embeddingModel: String?
    @Flag("replace", help: "Rebuild an index that another folder or corpus built from this one instead (its items are deleted first).")
    var replace: Bool
    @Option("check", .text("NAME"), help: "Compare the index with its folder or corpus (missing, extra and changed items) and check its word shortlists; exit 1 when anything disagrees.")
    var check: String?
    @Option("repair", .text("NAME"), help: "Rebuild the word shortlists that disagree with the full-text index.") var repair: String?
    @Flag("json", help: "Print one JSON object: counts, every skipped file and why, or the check's findings.") var json: Bool

    private enum Action {
        case build(DataSelection)
        case check(String)
        case repair(String)
    }

    /// What the options ask for: `--check` or `--repair` name the index alone, so nothing else
    /// that names one may come with them; otherwise a build from `--folder` or `--corpus`.
    private func action() throws(UsageError) -> Action {
        let given = [("--check", check), ("--repair", repair), ("--folder", folder), ("--corpus", corpus), ("--index", index)]
            .compactMap { option, value in value.map { (option, $0) } }
        guard case let (first, name)? = given.first, first == "--check" || first == "--repair" else {
            return .build(try DataSelection.from(corpus: corpus, folder: folder, index: index, requireSource: true))
        }
        if let other = given.dropFirst().first?.0 {
            throw Self.usageError("\(first) cannot be used with \(other); it names the index itself")
        }
        if replace { throw Self.usageError("--replace goes with --folder or --corpus, which name the source that replaces the index's own") }
        return first == "--check" ? .check(name) : .repair(name)
    }

    func run() async throws -> Int32 {
        switch try action() {
        case .build(let selection):
            let opened = try await IndexOpener.terminal(embeddingModel: embeddingModel, replacesSource: replace).open(selection)
            if json {
                print(json: BuildReport(opened))
            } else {
                let what = opened.summary ?? "already up to date"
                let vectors = opened.vectors.map { "vectors by \($0.prefix { $0 != " " })" } ?? "no vectors (full text only)"
                Terminal.output("Index '\(opened.name)': \(what); \(opened.itemCount) items, \(vectors), in \(opened.index.fileURL.path)\n")
                Terminal.output(Self.skippedLines(opened.report?.skipped ?? [:]))
            }
            return 0
        case .check(let name):
            let opener = IndexOpener()
            let index = try opener.existing(name)
            if let older = index.replacedFormatVersion { throw IndexOpener.olderFormat(name, version: older) }
            let comparison = try await opener.compareWithSource(index)
            let check = try await index.checkShortlists()
            // Items waiting for vectors are a state, not a fault: the next build embeds them.
            let vectors = await index.vectorsIdentity == nil ? nil : try await index.vectorCoverage()
            let sound = check.isSound && comparison?.agrees != false
            if json {
                print(json: CheckReport(name: name, path: index.fileURL.path, check: check, comparison: comparison, vectors: vectors))
                return sound ? 0 : 1
            }
            Terminal.output(Self.sourceLines(name, comparison))
            if let vectors { Terminal.output(Self.vectorLine(name, vectors, source: comparison?.source)) }
            if check.isSound {
                Terminal.output("Index '\(name)': the shortlists of all \(check.wordCount) words agree with the full-text index (\(check.itemCount) items in \(index.fileURL.path))\n")
            } else {
                let shown = check.disagreements.prefix(20).map { "  \($0)\n" }.joined()
                let more = check.disagreements.count > 20 ? "  … and \(check.disagreements.count - 20) more (ask index --check \(name) --json lists them all)\n" : ""
                Terminal.output("Index '\(name)': the shortlists of \(check.disagreements.count) of \(check.wordCount) words disagree with the full-text index, so one-word searches for them count and rank wrongly:\n"
                                + shown + more + "Run 'ask index --repair \(name)' to rebuild them from the full-text index.\n")
            }
            return sound ? 0 : 1
        case .repair(let name):
            let index = try IndexOpener().existing(name)
            if let older = index.replacedFormatVersion { throw IndexOpener.olderFormat(name, version: older) }
            let found = try await index.repairShortlists()
            try await index.checkpoint()
            if json {
                print(json: CheckReport(name: name, path: index.fileURL.path, check: found))
            } else {
                let words = found.disagreements.prefix(20).map(\.word).joined(separator: ", ")
                Terminal.output(found.isSound
                    ? "Index '\(name)': all \(found.wordCount) shortlists agree with the full-text index; nothing to repair\n"
                    : "Index '\(name)': rebuilt the shortlists of \(found.disagreements.count) words (\(words)\(found.disagreements.count > 20 ? ", …" : "")) from the full-text index\n")
            }
            return 0
        }
    }

    /// What `--check` found comparing the index with its source: agreement, or the first
    /// missing, extra and changed items and the command that brings the index up to date.
    static func sourceLines(_ name: String, _ comparison: SourceComparison?, limit: Int = 20) -> String {
        guard let comparison else {
            return "Index '\(name)': no source is recorded (built by an app, or by a Lantern from before sources were recorded), so it was not compared with one; 'ask index --folder DIR --index \(name)' (or --corpus) records it\n"
        }
        guard !comparison.agrees else { return "Index '\(name)': its items agree with \(comparison.source)\n" }
        let groups = [("missing from the index", comparison.missing), ("in the index but not in the source", comparison.extra),
                      ("changed since indexed", comparison.changed)]
        var text = "Index '\(name)' disagrees with \(comparison.source): " + groups.map { "\($0.1.count) \($0.0)" }.joined(separator: ", ") + "\n"
        let lines = groups.flatMap { group in group.1.map { "  \(group.0): \($0)\n" } }
        text += lines.prefix(limit).joined()
        if lines.count > limit { text += "  … and \(lines.count - limit) more (ask index --check \(name) --json lists them all)\n" }
        return text + "Run '\(comparison.source.indexCommand(name: name))' to bring it up to date.\n"
    }

    /// How much of the index has vectors, and what embeds the rest.
    static func vectorLine(_ name: String, _ coverage: VectorCoverage, source: IndexOrigin?) -> String {
        var line = "Index '\(name)': \(coverage) (\(coverage.vectorCount.formatted()) sentence vectors)"
        if !coverage.isComplete {
            line += "; \(coverage.pendingItemCount.formatted()) items wait for theirs and are found by their words meanwhile"
            if let source { line += "; '\(source.indexCommand(name: name))' embeds them" }
        }
        return line + "\n"
    }

    /// The first skipped files with their reasons, sorted by path; `--json` lists every one.
    static func skippedLines(_ skipped: [String: String], limit: Int = 20) -> String {
        let sorted = skipped.sorted { $0.key < $1.key }
        var text = sorted.prefix(limit).map { "  skipped \($0.key): \($0.value)\n" }.joined()
        if sorted.count > limit { text += "  … and \(sorted.count - limit) more skipped (ask index --json lists them all)\n" }
        return text
    }

    private func print(json value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        Terminal.output(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// `ask index --json` after a build or refresh.
    private struct BuildReport: Encodable {
        struct Skipped: Encodable { let path: String, reason: String }
        let index: String, path: String, itemCount: Int, summary: String
        /// The embedding model of the index's vectors; nil for full text only.
        let vectors: String?
        let indexed: Int?, unchanged: Int?, removed: Int?
        let skipped: [Skipped]
        let limitsReached: [String]
        /// Seconds from the start of the build until every item was searchable by words.
        let searchableByWordsSeconds: Double?
        /// Sentence pieces this run embedded, the tokens the model read for them, and the pieces
        /// that took the vector of an identical text instead; nil when no embedding pass ran.
        let embeddedPieces: Int?, embeddedTokens: Int?, reusedPieces: Int?

        init(_ opened: IndexOpener.Opened) {
            index = opened.name
            path = opened.index.fileURL.path
            itemCount = opened.itemCount
            summary = opened.summary ?? "already up to date"
            vectors = opened.vectors
            indexed = opened.report?.indexed
            unchanged = opened.report?.unchanged
            removed = opened.report?.removed
            skipped = (opened.report?.skipped ?? [:]).sorted { $0.key < $1.key }.map { Skipped(path: $0.key, reason: $0.value) }
            limitsReached = (opened.report?.limitsReached ?? []).map(\.description).sorted()
            searchableByWordsSeconds = opened.searchableByWords?.seconds
            embeddedPieces = opened.embedding?.embeddedPieces
            embeddedTokens = opened.embedding?.embeddedTokens
            reusedPieces = opened.embedding?.reusedPieces
        }
    }

    /// `ask index --check NAME --json` (and `--repair`: what the check found before repairing).
    private struct CheckReport: Encodable {
        struct Word: Encodable { let word: String, storedItemCount: Int, fullTextItemCount: Int, problem: String }
        /// The comparison with the index's recorded source.
        struct Source: Encodable {
            let kind: String, location: String, agrees: Bool
            let missing: [String], extra: [String], changed: [String]
        }
        let index: String, path: String, sound: Bool, wordCount: Int, itemCount: Int
        let disagreements: [Word]
        /// Nil when the index records no source (and with `--repair`, which does not compare).
        let source: Source?
        /// How many items have vectors and how many wait; nil for a full-text-only index.
        let vectors: VectorCoverage?

        init(name: String, path: String, check: ShortlistCheck, comparison: SourceComparison? = nil, vectors: VectorCoverage? = nil) {
            index = name
            self.vectors = vectors
            self.path = path
            sound = check.isSound && comparison?.agrees != false
            source = comparison.map {
                Source(kind: $0.source.kind.rawValue, location: $0.source.location, agrees: $0.agrees,
                       missing: $0.missing, extra: $0.extra, changed: $0.changed)
            }
            wordCount = check.wordCount
            itemCount = check.itemCount
            disagreements = check.disagreements.map {
                Word(word: $0.word, storedItemCount: $0.storedItemCount, fullTextItemCount: $0.fullTextItemCount, problem: $0.problem)
            }
        }
    }
}
