import Evaluations
import Foundation
import SearchIndex
import SearchTool

/// Opens the index a `DataSelection` names, building or refreshing it first: a corpus is
/// reindexed when its bytes changed (the fingerprint is kept as the index's batch client
/// state), a folder is refreshed incrementally by `FileSource`, a named index must exist and
/// hold items.
///
/// Indexes built from a source get vectors for search by meaning from the embedding model
/// (`--embedding-model`; by default the models.lock one, when setup installed it): items that
/// have none are embedded after the refresh has written their words (`embedPendingItems`), with
/// a progress line, so an interrupted build, or one from before the model was installed, gains
/// them on its next use. A source's index whose vectors came from
/// another model (or, with `--embedding-model none`, any vectors) has them removed first and is
/// embedded again. A named index is searched with the embedder that made its vectors.
///
/// This is the app layer every front end shares (`ask`, `ask index`, `ask mcp`), so an index
/// opened by one is opened the same way by the others. Its errors (`IndexOpeningError`) say
/// which `ask` command fixes them, because that is the tool that builds indexes.
public struct IndexOpener: Sendable {
    /// The embedding model (a path, a file in models/, a models.lock name) as the user gave
    /// it: nil is the default embedding model when it is installed, "none" is none.
    public var embeddingModel: String?
    /// `ask index --replace`: an index built from another source is emptied and rebuilt from
    /// this one instead of refused.
    public var replacesSource: Bool
    /// Where the refresh, the embedding pass and the embedder's load show their progress.
    public var progress: any ProgressReporter
    /// What the opener tells along the way that is not an error (`Note`); ignored by default.
    public var notes: @Sendable (Note) -> Void

    public init(embeddingModel: String? = nil, replacesSource: Bool = false, progress: any ProgressReporter = SilentProgress(),
                notes: @escaping @Sendable (Note) -> Void = { _ in }) {
        self.embeddingModel = embeddingModel
        self.replacesSource = replacesSource
        self.progress = progress
        self.notes = notes
    }

    /// The built-in sample, recorded by name: its file's path changes from build to build.
    public static let sampleSource = IndexOrigin(kind: .corpus, location: "the built-in sample")

    /// Something worth telling the user while an index opens; none of them stops it.
    public enum Note: Sendable, CustomStringConvertible {
        /// Another process writes to the index `index` (its process id when known); the opener
        /// waits for it.
        case waitingForWriter(index: String, holder: Int32?)
        /// The index's vectors were made by `stored`, another embedder than this run's
        /// (`embedder`, nil for none), so they were removed and, with an embedder, are made again.
        case vectorsReplaced(index: String, stored: String, embedder: String?)

        public var description: String {
            switch self {
            case .waitingForWriter(let name, let holder):
                "Index '\(name)': waiting for another writer\(holder.map { " (process \($0))" } ?? "") to finish"
            case .vectorsReplaced(let name, let stored, let embedder):
                "Index '\(name)': its vectors were made by \(stored); \(embedder.map { "embedding it again with \($0)" } ?? "removed them (--embedding-model none)")"
            }
        }
    }

    /// What was opened, and what the refresh did (for the summary line of `ask index`).
    public struct Opened: Sendable {
        public let index: SearchableIndex
        public let name: String
        public let itemCount: Int
        /// A one-line account of the refresh ("indexed 14 items"), nil when nothing changed.
        public let summary: String?
        /// What a folder refresh did, file by file (nil for a corpus or a named index).
        public internal(set) var report: FileSourceReport? = nil
        /// The embedding model the index's vectors are made with; nil when it has none (full text only).
        public internal(set) var vectors: String? = nil
        /// From the start of `open` until the refresh had written every item's words, so the
        /// index was searchable by words (before any embedding); nil for a named index, opened
        /// as it is. With the embedding pass's counts, what `ask index --json` reports and the
        /// bench's `folder` section measures.
        public internal(set) var searchableByWords: Duration? = nil
        /// What the embedding pass did (items, pieces embedded and reused); nil when none ran.
        public internal(set) var embedding: EmbeddingProgress? = nil
    }

    /// Opens the index `selection` names, building or refreshing it from its source first.
    public func open(_ selection: DataSelection) async throws -> Opened {
        var opened = try await build(selection, started: .now)
        opened.vectors = await opened.index.vectorsIdentity
        return opened
    }

    private func build(_ selection: DataSelection, started: ContinuousClock.Instant) async throws -> Opened {
        switch selection {
        case .sample:
            return try await openCorpus(SampleData.trailsCorpus, name: selection.indexName, source: Self.sampleSource, started: started)
        case .corpus(let url, let name):
            return try await openCorpus(url, name: name, started: started)
        case .folder(let url, let name):
            return try await openFolder(url, name: name, started: started)
        case .index(let name):
            let index = try await searching(existing(name), named: name)
            let count = try await index.count()
            // An index file in an older format is emptied when it is opened (the format changed),
            // and a question over no items can only get "nothing matches": say what to do instead.
            guard count > 0 else {
                let rebuild = "rebuild it with 'ask index --folder DIR --index \(name)' or 'ask index --corpus FILE.jsonl --index \(name)'"
                if let older = index.replacedFormatVersion { throw Self.olderFormat(name, version: older) }
                throw IndexOpeningError("the index '\(name)' holds no items: it was built from nothing; \(rebuild)")
            }
            return Opened(index: index, name: name, itemCount: count, summary: nil)
        }
    }

    /// Opening an index in an older format empties it: what to say then.
    public static func olderFormat(_ name: String, version: Int) -> IndexOpeningError {
        IndexOpeningError("the index '\(name)' was built by an older Lantern (index format \(version)), whose format this one replaced, which emptied it; rebuild it with 'ask index --folder DIR --index \(name)' or 'ask index --corpus FILE.jsonl --index \(name)'")
    }

    /// The index named `name`, which must exist (this never creates one). A file copied without
    /// its write-ahead log is refused by `SearchableIndex` with its own message.
    public func existing(_ name: String) throws -> SearchableIndex {
        let url = try SearchableIndex.defaultURL(name: name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw IndexOpeningError("there is no index named '\(name)' (looked for \(url.path)); build it with 'ask index --folder DIR --index \(name)' or 'ask index --corpus FILE.jsonl --index \(name)'")
        }
        return try SearchableIndex(url: url)
    }

    private func openCorpus(_ file: URL, name: String, source: IndexOrigin? = nil, started: ContinuousClock.Instant) async throws -> Opened {
        let index = try await refreshable(name)
        var corpus = CorpusSource(file: file, source: source)
        corpus.replacesOtherSource = replacesSource
        corpus.waitingForWriter = waitingNote(name)
        let progress = self.progress.begin("Indexing \(file.lastPathComponent)", total: nil)
        defer { progress.finish() }
        let report = try await explainingSourceMismatch(name) {
            try await corpus.refresh(into: index) { done, total in progress.update(completed: done, total: nil, detail: "of \(total) items") }
        }
        progress.finish()
        let searchable = ContinuousClock.now - started
        let (embedding, embedded) = try await embedMissingVectors(in: index)
        // ask ends with _exit, so SQLite never folds the log into the file: do it here, so the
        // file alone is the index (false only while another process writes; it folds it in).
        try await index.checkpoint()
        let summary = report.unchanged ? embedded : "indexed \(report.indexed) items from \(file.path)" + (embedded.map { "; \($0)" } ?? "")
        return Opened(index: index, name: name, itemCount: try await index.count(), summary: summary, searchableByWords: searchable, embedding: embedding)
    }

    private func openFolder(_ folder: URL, name: String, started: ContinuousClock.Instant) async throws -> Opened {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw IndexOpeningError("\(folder.path) is not a folder; pass --folder with a directory of documents")
        }
        let index = try await refreshable(name)
        var files = FileSource(scopes: [folder])
        files.replacesOtherSource = replacesSource
        files.waitingForWriter = waitingNote(name)
        let progress = self.progress.begin("Indexing \(folder.lastPathComponent)", total: nil)
        defer { progress.finish() }
        let report = try await explainingSourceMismatch(name) {
            try await files.refresh(into: index) { step in
                progress.update(completed: step.filesSeen, total: nil, detail: "files, \(ByteCountFormatter.string(fromByteCount: Int64(step.bytesRead), countStyle: .file))")
            }
        }
        progress.finish()
        let searchable = ContinuousClock.now - started
        let (embedding, embedded) = try await embedMissingVectors(in: index)
        try await index.checkpoint()
        var summary = "indexed \(report.indexed) files from \(folder.path) (\(report.unchanged) unchanged, \(report.removed) removed"
        summary += report.skipped.isEmpty ? ")" : ", \(report.skipped.count) skipped)"
        let textCap = FileSourceLimit.fileBytes(files.maximumFileBytes)
        let stops = report.limitsReached.subtracting([textCap])
        if !stops.isEmpty {
            let limits = stops.map(\.description).sorted().joined(separator: " and ")
            summary += "; the walk stopped at \(limits), and kept what it did not reach"
        }
        if report.limitsReached.contains(textCap) {
            summary += "; files longer than \(ByteCountFormatter.string(fromByteCount: Int64(files.maximumFileBytes), countStyle: .file)) were indexed up to that much of their text"
        }
        if let embedded { summary += "; \(embedded)" }
        return Opened(index: index, name: name, itemCount: try await index.count(), summary: summary, report: report,
                      searchableByWords: searchable, embedding: embedding)
    }

    // MARK: Vectors

    /// The embedding model `embeddingModel` names, its identity read (the model itself loads
    /// on the first embedding, after a build's words); nil for none, or when the default one is
    /// not installed.
    private func loadEmbedder() async throws -> ModelTextEmbedder? {
        guard let url = try ModelLocator().locateEmbeddingModel(embeddingModel) else { return nil }
        return try await progress.spinning("Reading \(url.lastPathComponent)") { try ModelTextEmbedder(contentsOf: url) }
    }

    /// The index `name`, to be refreshed from its source, opened with this run's embedder; its
    /// vectors are removed first when another embedder made them (or when there is none now).
    private func refreshable(_ name: String) async throws -> SearchableIndex {
        let url = try SearchableIndex.defaultURL(name: name)
        let embedder = try await loadEmbedder()
        let current = try SearchableIndex(url: url)
        if let stored = await current.vectorsIdentity, stored != embedder?.identity {
            try await current.removeVectors()
            notes(.vectorsReplaced(index: name, stored: stored, embedder: embedder?.identity))
        }
        guard let embedder else { return current }
        return try SearchableIndex(url: url, embedder: embedder)
    }

    /// `index` opened again with the embedder that made its vectors, so its searches are hybrid;
    /// as it is when it has none, or with `--embedding-model none`.
    private func searching(_ index: SearchableIndex, named name: String) async throws -> SearchableIndex {
        guard let stored = await index.vectorsIdentity, embeddingModel != ModelLocator.noEmbeddingModel,
              let embedder = try await loadEmbedder() else { return index }
        do {
            return try SearchableIndex(url: index.fileURL, embedder: embedder)
        } catch SearchIndexError.embedderMismatch {
            throw IndexOpeningError("the index '\(name)' holds vectors made by \(stored), and this run embeds with \(embedder.identity); pass --embedding-model with the model that made them, or --embedding-model none to search its words only, or rebuild it with 'ask index --folder DIR --index \(name)' (or --corpus FILE.jsonl), which embeds it again")
        }
    }

    /// Runs the embedding pass over the items of `index` that have no vectors yet (after the
    /// refresh wrote their words, so they are searchable by words already), with a progress
    /// line and an estimate; what it did (nil with no embedder), and its account for the summary
    /// (nil when there was nothing to do). The pass commits chunk by chunk: Ctrl-C or a killed
    /// process keeps what was embedded, and the next run embeds the rest.
    private func embedMissingVectors(in index: SearchableIndex) async throws -> (EmbeddingProgress?, String?) {
        guard let embedder = index.embedder else { return (nil, nil) }
        // One writer at a time, so two runs on one index do not embed the same items twice.
        let lock = try await IndexWriterLock.acquire(for: index.fileURL)
        defer { withExtendedLifetime(lock) {} }
        let progress = self.progress.begin("Embedding", total: 0)
        defer { progress.finish() }
        let done = try await index.embedPendingItems { state in
            progress.update(completed: state.embeddedItems, total: state.pendingItems, detail: "items (\(state.reusedPieces.formatted()) of \((state.embeddedPieces + state.reusedPieces).formatted()) pieces reused)")
        }
        progress.finish()
        guard done.embeddedItems > 0 else { return (done, nil) }
        try await index.checkpoint()
        let reused = done.reusedPieces > 0 ? " (\(done.reusedPieces) of \(done.embeddedPieces + done.reusedPieces) pieces reused from identical text)" : ""
        return (done, "embedded \(done.embeddedItems) items with \(embedder.identity.prefix { $0 != " " })\(reused)")
    }

    /// How `index` differs from the source it records (`ask index --check`); nil when it records
    /// none. Reads the folder's listing or the corpus, writes nothing.
    public func compareWithSource(_ index: SearchableIndex) async throws -> SourceComparison? {
        guard let source = try await index.origin() else { return nil }
        switch source.kind {
        case .corpus:
            let file = source == Self.sampleSource ? SampleData.trailsCorpus : URL(fileURLWithPath: source.location)
            return try await CorpusSource(file: file, source: source).compare(with: index)
        case .folder:
            let scopes = source.location.split(separator: "\n").map { URL(fileURLWithPath: String($0)) }
            return try await FileSource(scopes: scopes).compare(with: index)
        }
    }

    /// The note told once when another writer holds the index being refreshed.
    private func waitingNote(_ name: String) -> @Sendable (Int32?) -> Void {
        { [notes] holder in notes(.waitingForWriter(index: name, holder: holder)) }
    }

    /// Runs a source's refresh, turning a source mismatch into what to do about it: the flag
    /// that replaces the source, or another name for the index.
    private func explainingSourceMismatch<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let SearchIndexError.sourceMismatch(_, recorded, given) {
            guard given != Self.sampleSource else {
                throw IndexOpeningError("the index '\(name)' holds \(recorded), and the built-in sample is indexed under that name; give your index another name (ask index … --index NAME) and ask with --index NAME")
            }
            throw IndexOpeningError("the index '\(name)' was built from \(recorded), not from \(given); refreshing it would delete its items, so nothing was changed. Pick another name (--index NAME), or rebuild '\(name)' from \(given) with '\(given.indexCommand(name: name)) --replace'")
        }
    }
}
