import CommandLineArguments
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
/// have none are embedded after the refresh, with a progress line, so an index built before
/// the model was installed gains them on its next use. A source's index whose vectors came from
/// another model (or, with `--embedding-model none`, any vectors) has them removed first and is
/// embedded again. A named index is searched with the embedder that made its vectors.
struct IndexOpener: Sendable {
    /// `--embedding-model` as given: nil is the default embedding model when it is installed,
    /// `ModelLocator.noEmbeddingModel` is none.
    var embeddingModel: String? = nil

    /// What was opened, and what the refresh did (for the summary line of `ask index`).
    struct Opened: Sendable {
        let index: SearchableIndex
        let name: String
        let itemCount: Int
        /// A one-line account of the refresh ("indexed 14 items"), nil when nothing changed.
        let summary: String?
        /// What a folder refresh did, file by file (nil for a corpus or a named index).
        var report: FileSourceReport? = nil
        /// The embedding model the index's vectors are made with; nil when it has none (full text only).
        var vectors: String? = nil
    }

    func open(_ selection: DataSelection) async throws -> Opened {
        var opened = try await build(selection)
        opened.vectors = await opened.index.vectorsIdentity
        return opened
    }

    private func build(_ selection: DataSelection) async throws -> Opened {
        switch selection {
        case .sample:
            return try await openCorpus(SampleData.trailsCorpus, name: selection.indexName)
        case .corpus(let url, let name):
            return try await openCorpus(url, name: name)
        case .folder(let url, let name):
            return try await openFolder(url, name: name)
        case .index(let name):
            let index = try await searching(existing(name), named: name)
            let count = try await index.count()
            // An index file in an older format is emptied when it is opened (the format changed),
            // and a question over no items can only get "nothing matches": say what to do instead.
            guard count > 0 else {
                let rebuild = "rebuild it with 'ask index --folder DIR --index \(name)' or 'ask index --corpus FILE.jsonl --index \(name)'"
                if let older = index.replacedFormatVersion { throw Self.olderFormat(name, version: older) }
                throw AskError("the index '\(name)' holds no items: it was built from nothing; \(rebuild)")
            }
            return Opened(index: index, name: name, itemCount: count, summary: nil)
        }
    }

    /// Opening an index in an older format empties it: what to say then.
    static func olderFormat(_ name: String, version: Int) -> AskError {
        AskError("the index '\(name)' was built by an older Lantern (index format \(version)), whose format this one replaced, which emptied it; rebuild it with 'ask index --folder DIR --index \(name)' or 'ask index --corpus FILE.jsonl --index \(name)'")
    }

    /// The index named `name`, which must exist (this never creates one). A file copied without
    /// its write-ahead log is refused by `SearchableIndex` with its own message.
    func existing(_ name: String) throws -> SearchableIndex {
        let url = try SearchableIndex.defaultURL(name: name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw AskError("there is no index named '\(name)' (looked for \(url.path)); build it with 'ask index --folder DIR --index \(name)' or 'ask index --corpus FILE.jsonl --index \(name)'")
        }
        return try SearchableIndex(url: url)
    }

    private func openCorpus(_ file: URL, name: String) async throws -> Opened {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw AskError("cannot read the corpus \(file.path): \(FileManager.default.fileExists(atPath: file.path) ? "not readable" : "no such file")")
        }
        let fingerprint = Data("corpus-fnv1a:\(Self.fingerprint(data))".utf8)
        let index = try await refreshable(name)
        if try await index.fetchLastClientState() == fingerprint {
            let embedded = try await embedMissingVectors(in: index)
            return Opened(index: index, name: name, itemCount: try await index.count(), summary: embedded)
        }
        let items = try CorpusReader().items(fromText: String(decoding: data, as: UTF8.self), path: file.path)
        let progress = Progress("Indexing \(file.lastPathComponent)", total: items.count)
        defer { progress.finish() }
        try await index.beginBatch()
        try await index.deleteAllSearchableItems()
        let chunk = 200
        for start in stride(from: 0, to: items.count, by: chunk) {
            let slice = Array(items[start..<min(start + chunk, items.count)])
            try await index.indexSearchableItems(slice)
            progress.update(completed: start + slice.count)
        }
        try await index.endBatch(clientState: fingerprint)
        // ask ends with _exit, so SQLite never folds the log into the file: do it here, so the
        // file alone is the index (false only while another process writes; it folds it in).
        try await index.checkpoint()
        return Opened(index: index, name: name, itemCount: items.count, summary: "indexed \(items.count) items from \(file.path)")
    }

    private func openFolder(_ folder: URL, name: String) async throws -> Opened {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AskError("\(folder.path) is not a folder; pass --folder with a directory of documents")
        }
        let index = try await refreshable(name)
        let progress = Progress("Indexing \(folder.lastPathComponent)")
        defer { progress.finish() }
        let report = try await FileSource(scopes: [folder]).refresh(into: index) { step in
            progress.update(completed: step.filesSeen, detail: "files, \(ByteCountFormatter.string(fromByteCount: Int64(step.bytesRead), countStyle: .file))")
        }
        progress.finish()
        let embedded = try await embedMissingVectors(in: index)
        try await index.checkpoint()
        var summary = "indexed \(report.indexed) files from \(folder.path) (\(report.unchanged) unchanged, \(report.removed) removed"
        summary += report.skipped.isEmpty ? ")" : ", \(report.skipped.count) skipped)"
        if report.reachedLimit {
            let limits = report.limitsReached.map(\.description).sorted().joined(separator: " and ")
            summary += "; the walk stopped at \(limits), and kept what it did not reach"
        }
        if let embedded { summary += "; \(embedded)" }
        return Opened(index: index, name: name, itemCount: try await index.count(), summary: summary, report: report)
    }

    // MARK: Vectors

    /// The embedding model `embeddingModel` names, loaded; nil for none, or when the default
    /// one is not installed.
    private func loadEmbedder() async throws -> ModelTextEmbedder? {
        guard let url = try ModelLocator().locateEmbeddingModel(embeddingModel) else { return nil }
        return try await Progress.spinning("Loading \(url.lastPathComponent)") { try ModelTextEmbedder(contentsOf: url) }
    }

    /// The index `name`, to be refreshed from its source, opened with this run's embedder; its
    /// vectors are removed first when another embedder made them (or when there is none now).
    private func refreshable(_ name: String) async throws -> SearchableIndex {
        let url = try SearchableIndex.defaultURL(name: name)
        let embedder = try await loadEmbedder()
        let current = try SearchableIndex(url: url)
        if let stored = await current.vectorsIdentity, stored != embedder?.identity {
            try await current.removeVectors()
            if Terminal.standardErrorIsTerminal {
                Terminal.error("Index '\(name)': its vectors were made by \(stored); \(embedder.map { "embedding it again with \($0.identity)" } ?? "removed them (--embedding-model none)")\n")
            }
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
            throw AskError("the index '\(name)' holds vectors made by \(stored), and this run embeds with \(embedder.identity); pass --embedding-model with the model that made them, or --embedding-model none to search its words only, or rebuild it with 'ask index --folder DIR --index \(name)' (or --corpus FILE.jsonl), which embeds it again")
        }
    }

    /// Embeds the items of `index` that have no vectors yet, with a progress line; what it did,
    /// for the summary, or nil when there was nothing to do (or no embedder).
    private func embedMissingVectors(in index: SearchableIndex) async throws -> String? {
        guard let embedder = index.embedder else { return nil }
        let progress = Progress("Embedding")
        defer { progress.finish() }
        let embedded = try await index.embedItemsWithoutVectors { done, total in
            progress.update(completed: done, detail: "of \(total) items")
        }
        guard embedded > 0 else { return nil }
        try await index.checkpoint()
        return "embedded \(embedded) items with \(embedder.identity.prefix { $0 != " " })"
    }

    /// FNV-1a over the bytes: enough to notice that a corpus file changed.
    private static func fingerprint(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16) + "-\(data.count)"
    }
}
