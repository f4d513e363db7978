import Foundation

/// A JSON Lines corpus (the format `CorpusReader` reads) as the source of an index: what
/// `ask --corpus` indexes. The corpus is indexed whole, in one batch whose client state is a
/// fingerprint of the file's bytes, so a refresh of an unchanged file writes nothing and a
/// process killed mid-way leaves the index as it was.
///
/// Like `FileSource`, it holds the index's `IndexWriterLock` from before it reads the index's
/// state to its last write, records itself as the index's source, and refuses an index that
/// another source built (`SearchIndexError.sourceMismatch`) unless `replacesOtherSource`.
public struct CorpusSource: Sendable {
    public var file: URL
    /// What the index records as its source: the file's real path unless set otherwise (the
    /// built-in sample keeps one name while its path changes from build to build).
    public var source: IndexOrigin
    /// Whether an index built from another source is emptied and rebuilt from this one, rather
    /// than refused.
    public var replacesOtherSource = false
    /// Called once if another writer holds the index's lock, with its process id when known.
    public var waitingForWriter: (@Sendable (_ holder: Int32?) -> Void)?
    /// Items written per call to the index inside the batch (for progress).
    public var itemsPerWrite = 200

    public init(file: URL, source: IndexOrigin? = nil) {
        self.file = file
        self.source = source ?? .corpus(file)
    }

    /// What a refresh did.
    public struct Report: Sendable, Hashable {
        /// Items indexed; 0 when the file had not changed since the index was built from it.
        public var indexed: Int
        /// Whether the file was already indexed as it is.
        public var unchanged: Bool { indexed == 0 }
    }

    /// Indexes the corpus into `index` when its bytes changed since the last refresh (or the
    /// index is new), replacing every item. A line that is not a valid item stops the refresh
    /// before anything is written (`CorpusReaderError`, with its line).
    public func refresh(into index: SearchableIndex,
                        progress: (@Sendable (_ indexed: Int, _ total: Int) -> Void)? = nil) async throws -> Report {
        let data = try contents()
        let lock = try await IndexWriterLock.acquire(for: index.fileURL, waiting: waitingForWriter)
        defer { withExtendedLifetime(lock) {} }
        let fingerprint = Self.fingerprint(data)
        if try await index.fetchLastClientState() == fingerprint, try await index.origin() == source {
            return Report(indexed: 0)
        }
        let items = try CorpusReader().items(fromText: String(decoding: data, as: UTF8.self), path: file.path)
        try await index.beginBatch()
        do {
            try await index.claimOrigin(source, replacing: replacesOtherSource)
            try await index.deleteAllSearchableItems()
            for start in stride(from: 0, to: items.count, by: itemsPerWrite) {
                let slice = Array(items[start..<min(start + itemsPerWrite, items.count)])
                try await index.indexSearchableItems(slice)
                progress?(start + slice.count, items.count)
            }
            try await index.endBatch(clientState: fingerprint)
        } catch {
            try? await index.abandonBatch()
            throw error
        }
        return Report(indexed: items.count)
    }

    /// How `index` differs from the corpus: identifiers missing from it or extra in it, and the
    /// file's path under `changed` when its bytes changed since it was indexed. Writes nothing.
    public func compare(with index: SearchableIndex) async throws -> SourceComparison {
        let data = try contents()
        var comparison = SourceComparison(source: source)
        let items = try CorpusReader().items(fromText: String(decoding: data, as: UTF8.self), path: file.path)
        let inCorpus = Set(items.map(\.uniqueIdentifier))
        let inIndex = Set(try await index.search(SearchQuery(.all, sort: [], limit: nil, fetchAttributes: [])).map(\.item.uniqueIdentifier))
        comparison.missing = inCorpus.subtracting(inIndex).sorted()
        comparison.extra = inIndex.subtracting(inCorpus).sorted()
        if try await index.fetchLastClientState() != Self.fingerprint(data) { comparison.changed = [file.path] }
        return comparison
    }

    private func contents() throws(CorpusReaderError) -> Data {
        do {
            return try Data(contentsOf: file)
        } catch {
            let reason = FileManager.default.fileExists(atPath: file.path) ? "not readable" : "no such file"
            throw CorpusReaderError(path: file.path, line: 0, problem: .unreadableFile(reason: reason))
        }
    }

    /// FNV-1a over the bytes and their count: enough to notice that a corpus file changed.
    static func fingerprint(_ data: Data) -> Data {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Data("corpus-fnv1a:\(String(hash, radix: 16))-\(data.count)".utf8)
    }
}
