import Evaluations
import Foundation
import SearchIndex

/// Opens the index a `DataSelection` names, building or refreshing it first: a corpus is
/// reindexed when its bytes changed (the fingerprint is kept as the index's batch client
/// state), a folder is refreshed incrementally by `FileSource`, a named index must exist and
/// hold items.
struct IndexOpener: Sendable {
    /// What was opened, and what the refresh did (for the summary line of `ask index`).
    struct Opened: Sendable {
        let index: SearchableIndex
        let name: String
        let itemCount: Int
        /// A one-line account of the refresh ("indexed 14 items"), nil when nothing changed.
        let summary: String?
    }

    func open(_ selection: DataSelection) async throws -> Opened {
        switch selection {
        case .sample:
            return try await openCorpus(SampleData.trailsCorpus, name: selection.indexName)
        case .corpus(let url, let name):
            return try await openCorpus(url, name: name)
        case .folder(let url, let name):
            return try await openFolder(url, name: name)
        case .index(let name):
            let url = try SearchableIndex.defaultURL(name: name)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw AskError("there is no index named '\(name)' (looked for \(url.path)); build it with 'ask index --folder DIR --index \(name)' or 'ask index --corpus FILE.jsonl --index \(name)'")
            }
            let index = try SearchableIndex(url: url)
            let count = try await index.count()
            // An index file in an older format is emptied when it is opened (the format changed),
            // and a question over no items can only get "nothing matches": say what to do instead.
            guard count > 0 else {
                throw AskError("the index '\(name)' holds no items: it was built from nothing, or by an older Lantern whose index format this one replaced (which empties it); rebuild it with 'ask index --folder DIR --index \(name)' or 'ask index --corpus FILE.jsonl --index \(name)'")
            }
            return Opened(index: index, name: name, itemCount: count, summary: nil)
        }
    }

    private func openCorpus(_ file: URL, name: String) async throws -> Opened {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw AskError("cannot read the corpus \(file.path): \(FileManager.default.fileExists(atPath: file.path) ? "not readable" : "no such file")")
        }
        let fingerprint = Data("corpus-fnv1a:\(Self.fingerprint(data))".utf8)
        let index = try SearchableIndex(name: name)
        if try await index.fetchLastClientState() == fingerprint {
            return Opened(index: index, name: name, itemCount: try await index.count(), summary: nil)
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
        return Opened(index: index, name: name, itemCount: items.count, summary: "indexed \(items.count) items from \(file.path)")
    }

    private func openFolder(_ folder: URL, name: String) async throws -> Opened {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AskError("\(folder.path) is not a folder; pass --folder with a directory of documents")
        }
        let index = try SearchableIndex(name: name)
        let progress = Progress("Indexing \(folder.lastPathComponent)")
        defer { progress.finish() }
        let report = try await FileSource(scopes: [folder]).refresh(into: index) { step in
            progress.update(completed: step.filesSeen, detail: "files, \(ByteCountFormatter.string(fromByteCount: Int64(step.bytesRead), countStyle: .file))")
        }
        var summary = "indexed \(report.indexed) files from \(folder.path) (\(report.unchanged) unchanged, \(report.removed) removed"
        summary += report.skipped.isEmpty ? ")" : ", \(report.skipped.count) skipped)"
        if report.reachedLimit { summary += "; a size limit stopped the walk early" }
        return Opened(index: index, name: name, itemCount: try await index.count(), summary: summary)
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
