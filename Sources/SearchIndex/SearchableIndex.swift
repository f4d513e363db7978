import Foundation
import Synchronization

/// A named, persistent, Core-Spotlight-style index: one SQLite file (WAL) holding items, their
/// metadata and a full-text index.
///
/// Mirrors `CSSearchableIndex` (named index, `indexSearchableItems`, the three deletes, batches
/// with client state, an index delegate) with async methods. An actor: it owns the one writer
/// connection; searches go to a small pool of reader connections, so many tasks can search at once
/// while one writes.
public actor SearchableIndex {
    /// Where the index lives.
    public nonisolated let fileURL: URL
    /// The time zone day/week/month/year groupings use (fixed when the index is opened).
    public nonisolated let timeZone: TimeZone
    private let writer: SQLiteDatabase
    private let store: ItemStore
    private let readers: [IndexReader]
    private let nextReader = Atomic<Int>(0)
    private var inBatch = false
    /// The store's state when the open batch began, restored if the batch is rolled back.
    private var batchStartState: ItemStore.State?
    /// Items the open batch has written so far (replacements included).
    private var batchItemCount = 0
    /// Whether the open batch has dropped the secondary indexes, to build them again before it commits.
    private(set) var bulkLoading = false
    /// The secondary indexes the open batch dropped (those that held entries), to build again.
    private(set) var droppedIndexes: [IndexSchema.SecondaryIndex] = []
    /// Roughly how many items the index held when the open batch began (its highest rowid).
    private var batchStartSize = 0
    /// Items were written since the embedding pass last handed the memory back, so the next
    /// pass does it again (once after a words phase, not on every bounded step).
    private var wroteItemsSinceMemoryRelease = false
    private var earliestExpiration: Date?
    private var catalogue: [AttributeSummary]?
    private var delegate: (any SearchableIndexDelegate)?
    private var wasCreatedAnew: Bool
    /// The writer's transactions on a file other processes may write too (see `WriteSession`).
    private let session: WriteSession
    /// The index format of an older Lantern that this file held when it was opened, and which
    /// opening it replaced (emptying it); nil when the file was new or in the current format.
    public nonisolated let replacedFormatVersion: Int?
    /// What embeds passages and queries for search by meaning; nil for a full-text-only index.
    public nonisolated let embedder: (any TextEmbedder)?
    /// The identity of the embedder whose vectors the index holds (`meta.embedder`) or, opened
    /// with one, will hold; nil for a full-text-only index. A caller opening an index it did not
    /// build reads it to choose the embedder (or none).
    public private(set) var vectorsIdentity: String?

    /// Opens (or creates) the index named `name` under `$XDG_DATA_HOME/lantern/indexes/`
    /// (`~/.local/share/lantern/indexes/` when unset), like `CSSearchableIndex(name:)`.
    public init(name: String, timeZone: TimeZone = .current, readerCount: Int = 2, embedder: (any TextEmbedder)? = nil) throws(SearchIndexError) {
        try self.init(url: try Self.defaultURL(name: name), timeZone: timeZone, readerCount: readerCount, embedder: embedder)
    }

    /// Opens (or creates) the index at a file URL the caller chooses.
    ///
    /// A file in an older index format is emptied and takes the current one
    /// (`replacedFormatVersion` says so; the delegate, if any, is asked to reindex). A file from a
    /// newer Lantern, or one whose latest changes are in a write-ahead log that is not beside it,
    /// is not opened (`newerIndexFormat`, `missingWriteAheadLog`) and stays as it is.
    ///
    /// With an `embedder`, items get vectors in the embedding pass (`embedPendingItems`), which
    /// follows the writes of their words, and words queries become hybrid (see `search(_:)`);
    /// the file records the embedder's identity, and opening it later with another embedder
    /// throws `embedderMismatch` (to re-embed: open it without one, `removeVectors()`, open it
    /// with the new one and run the embedding pass).
    public init(url: URL, timeZone: TimeZone = .current, readerCount: Int = 2, embedder: (any TextEmbedder)? = nil) throws(SearchIndexError) {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateDirectory(path: folder.path, reason: error.localizedDescription)
        }
        fileURL = url
        self.timeZone = timeZone
        // Looked at before SQLite opens the file, which creates the log when there is none.
        let logExists = FileManager.default.fileExists(atPath: url.path + "-wal")
        let writer = try SQLiteDatabase(path: url.path, readOnly: false, recordingWeights: IndexSchema.fullTextWeights)
        self.writer = writer
        // Only a new, empty file takes the page size (`IndexSchema.pageSize`); WAL fixes it after.
        try writer.execute("PRAGMA page_size = \(IndexSchema.pageSize);")
        // Switching a new file to WAL needs it to itself, and SQLite refuses at once rather than
        // wait when another process is opening it too; so it is retried for the usual wait.
        try writer.retryingWhileBusy { () throws(SearchIndexError) in try writer.execute("PRAGMA journal_mode = WAL") }
        try writer.execute("""
            PRAGMA synchronous = NORMAL; PRAGMA cache_size = -131072; PRAGMA temp_store = MEMORY; PRAGMA mmap_size = 1073741824;
            """)
        // Under the write lock, so that two processes opening a new file create its schema once.
        var replaced: Int?
        var created = false
        let logMarked = try writer.immediateTransaction { () throws(SearchIndexError) -> Bool in
            let version = Int(try writer.query("PRAGMA user_version") { $0.integer(0) }.first ?? 0)
            if version == IndexSchema.version {
                let marked = try WriteSession.marker(writer) == WriteSession.open
                // Opening made an empty log if there was none; one that holds frames by now was
                // written by another process (which created the file meanwhile).
                if marked && !logExists && Self.fileSize(url.path + "-wal") == 0 { throw .missingWriteAheadLog(path: url.path) }
                return marked
            }
            if version > IndexSchema.version {
                throw .newerIndexFormat(path: url.path, found: version, supported: IndexSchema.version)
            }
            replaced = version == 0 ? nil : version
            try writer.execute("\(IndexSchema.dropStatements) \(IndexSchema.createStatements) PRAGMA user_version = \(IndexSchema.version);")
            try WriteSession.setMarker(WriteSession.open, in: writer)
            created = true
            return true
        }
        wasCreatedAnew = created
        replacedFormatVersion = replaced
        // A new file holds its schema (and says its log is open) before any item reaches the log.
        if created { try? writer.execute("PRAGMA wal_checkpoint(PASSIVE)") }
        session = try WriteSession(database: writer, logMarked: logMarked)
        store = try ItemStore(database: writer, timeZone: timeZone)
        readers = try (0..<max(1, readerCount)).map { (_) throws(SearchIndexError) in try IndexReader(path: url.path) }
        earliestExpiration = try store.earliestExpiration()
        self.embedder = embedder
        let stored = try writer.query("SELECT value FROM meta WHERE key = 'embedder'") { $0.text(0) }.first ?? nil
        if let embedder, let stored, stored != embedder.identity {
            throw .embedderMismatch(path: url.path, stored: stored, given: embedder.identity)
        }
        vectorsIdentity = embedder?.identity ?? stored
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// `$XDG_DATA_HOME/lantern/indexes/<name>.sqlite`.
    public static func defaultURL(name: String) throws(SearchIndexError) -> URL {
        guard !name.isEmpty, !name.hasPrefix("."), name.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) else {
            throw .invalidIndexName(name)
        }
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("lantern/indexes/\(name).sqlite")
    }

    /// Sets the delegate. If the file was just created (new, or rebuilt for a newer schema), the
    /// delegate is asked at once to reindex everything.
    public func setDelegate(_ delegate: (any SearchableIndexDelegate)?) async throws {
        self.delegate = delegate
        if wasCreatedAnew, let delegate {
            wasCreatedAnew = false
            try await delegate.reindexAllSearchableItems(in: self)
        }
    }

    // MARK: Writes

    /// A batch that has written more than this many items, and more than a quarter of what the
    /// index held before it, loads in bulk: it drops the secondary indexes
    /// (`IndexSchema.secondaryIndexes`) at that point and builds them again, each in one sorted
    /// pass, just before it commits. (Into a large index, a smaller batch is cheaper to add item by
    /// item than to rebuild every index over.) Indexes still empty at that point (attributes the
    /// batch has not used so far, e.g. latitude in a batch of notes) are kept and filled item by
    /// item, since building an index scans every row however few it ends up holding. FTS5 stops
    /// merging meanwhile and leaves the batch's segments to later writes' merging
    /// (`IndexSchema.ftsBulkLoadSettings`). All of it is inside the batch's transaction, so a
    /// process killed mid-batch still leaves the index as before, and readers keep using the
    /// committed indexes meanwhile.
    static let bulkLoadThreshold = 5_000

    /// Inserts or replaces items (by identifier), all or none. Only their words and attributes
    /// are written, at full-text speed, so they are searchable by words at once; with an
    /// embedder, their vectors follow in the embedding pass (`embedPendingItems`), since
    /// embedding costs hundreds of times what writing words does. An index holding vectors
    /// refuses items without an embedder (`embedderRequired`): they could never get theirs.
    public func indexSearchableItems(_ items: [SearchableItem]) async throws(SearchIndexError) {
        if embedder == nil, let vectorsIdentity { throw .embedderRequired(path: fileURL.path, stored: vectorsIdentity) }
        if inBatch {
            batchItemCount += items.count
            if !bulkLoading, batchItemCount > max(Self.bulkLoadThreshold, batchStartSize / 4) {
                bulkLoading = true
                droppedIndexes = []
                for index in IndexSchema.secondaryIndexes where try !writer.query(index.probe, { _ in true }).isEmpty {
                    droppedIndexes.append(index)
                }
                try writer.execute(droppedIndexes.map { "DROP INDEX IF EXISTS \"\($0.name)\";" }.joined(separator: " ")
                                   + IndexSchema.ftsBulkLoadSettings)
            }
        }
        wroteItemsSinceMemoryRelease = true
        try write { (store) throws(SearchIndexError) in
            // The first write with an embedder records it: the vectors to come are its.
            if let embedder { try writer.run("INSERT OR IGNORE INTO meta(key, value) VALUES('embedder', \(embedder.identity))") }
            for item in items { try store.upsert(item) }
            if let earliest = items.compactMap(\.expirationDate).min() {
                earliestExpiration = min(earliestExpiration ?? earliest, earliest)
            }
        }
    }

    /// `embedder`'s vectors of `texts`, checked: one per text, each of its dimension.
    static func embed(_ texts: [String], with embedder: any TextEmbedder) async throws(SearchIndexError) -> [[Float]] {
        try await embedCountingTokens(texts, with: embedder).vectors
    }

    /// `embed(_:with:)`, and the tokens the embedder read, when it counts them.
    static func embedCountingTokens(_ texts: [String], with embedder: any TextEmbedder) async throws(SearchIndexError) -> (vectors: [[Float]], tokens: Int?) {
        let vectors: [[Float]], tokens: Int?
        do { (vectors, tokens) = try await embedder.embedCountingTokens(texts) } catch {
            throw .embeddingFailed(reason: "\(embedder.identity) failed: \(error)")
        }
        guard vectors.count == texts.count else {
            throw .embeddingFailed(reason: "\(embedder.identity) returned \(vectors.count) vectors for \(texts.count) texts")
        }
        if let wrong = vectors.first(where: { $0.count != embedder.dimension }) {
            throw .embeddingFailed(reason: "\(embedder.identity) returned a vector of length \(wrong.count), not its dimension \(embedder.dimension)")
        }
        return (vectors, tokens)
    }

    // MARK: Vectors

    /// Gives vectors to items that have none — every item, since `indexSearchableItems` writes
    /// words only — in chunks, each one embedder call and one transaction (`EmbeddingPass`), so
    /// an interrupted pass keeps what it committed and the next call goes on from there, never
    /// embedding an item twice. Pieces whose text the index already holds reuse that vector.
    ///
    /// Stops after `maximumItems` items, so an app can embed in bounded steps between its own
    /// work; or run it whole in a `Task` of its own and cancel that task to stop (the chunk being
    /// embedded is dropped, the committed ones stay). Searches may run meanwhile: they are hybrid
    /// where vectors exist and find the other items by their words. `progress` gets the state
    /// after each chunk. Returns what the call did; `remainingItems` is 0 when all is embedded.
    ///
    /// After items were written, before the first chunk, the writer's page cache and the memory
    /// the words phase freed go back to the system, so an embedder that loads its model on first
    /// use (`ModelTextEmbedder`) takes their place: indexing peaks no higher than writing the
    /// words did, or the model.
    @discardableResult
    public func embedPendingItems(maximumItems: Int = .max,
                                  progress: @Sendable (EmbeddingProgress) -> Void = { _ in }) async throws(SearchIndexError) -> EmbeddingProgress {
        guard let embedder else { throw .noEmbedder(doing: "Embedding the items that have no vectors") }
        let pass = EmbeddingPass(database: writer)
        var state = EmbeddingProgress(pendingItems: try pass.pendingItemCount())
        progress(state)
        if state.pendingItems > 0, !inBatch, wroteItemsSinceMemoryRelease {
            try writer.releaseMemory()
            wroteItemsSinceMemoryRelease = false
        }
        var cursor: Int64 = 0
        while state.embeddedItems < maximumItems, !Task.isCancelled,
              var chunk = try pass.chunk(after: cursor, maximumItems: maximumItems - state.embeddedItems) {
            cursor = chunk.lastRowid
            if !chunk.missing.isEmpty {
                do {
                    let embedded = try await Self.embedCountingTokens(chunk.missing.map(\.text), with: embedder)
                    chunk.fill(embedded.vectors)
                    if let tokens = embedded.tokens { state.embeddedTokens = (state.embeddedTokens ?? 0) + tokens }
                } catch {
                    if Task.isCancelled { break }
                    throw error
                }
            }
            var written = 0
            try write { (store) throws(SearchIndexError) in
                try writer.run("INSERT OR IGNORE INTO meta(key, value) VALUES('embedder', \(embedder.identity))")
                written = try pass.store(chunk)
                if written > 0 { store.vectorsChanged = true }
            }
            state.embeddedItems += written
            state.embeddedPieces += chunk.missing.count
            state.reusedPieces += chunk.reusedCount
            progress(state)
        }
        // What is left: items not reached, and any passed over (changed meanwhile, unreadable).
        state.pendingItems = state.embeddedItems + (try pass.pendingItemCount())
        return state
    }

    /// How many items have vectors, and how many wait for the embedding pass, as readers see it
    /// now (from the vectors a search by meaning loads, so it is cheap beside a search).
    public func vectorCoverage() async throws(SearchIndexError) -> VectorCoverage {
        let dimension = embedder?.dimension
        return try await readWithVectors { (database, cache) throws(SearchIndexError) in
            try database.readTransaction { () throws(SearchIndexError) -> VectorCoverage in
                let items = Int(try database.query("SELECT count(*) FROM items") { $0.integer(0) }.first ?? 0)
                let stored = try database.query("SELECT length(data) - 4 FROM vectors LIMIT 1") { Int($0.integer(0)) }.first
                guard let dimension = dimension ?? stored else {
                    return VectorCoverage(itemCount: items, embeddedItemCount: 0, vectorCount: 0)
                }
                let matrix = try cache.matrix(on: database, dimension: dimension)
                return VectorCoverage(itemCount: items, embeddedItemCount: matrix.itemCount, vectorCount: matrix.count)
            }
        }
    }

    /// How many vectors the index holds: one per sentence piece of each embedded passage.
    public func vectorCount() async throws(SearchIndexError) -> Int {
        try await read { (database) throws(SearchIndexError) in
            Int(try database.query("SELECT count(*) FROM vectors") { $0.integer(0) }.first ?? 0)
        }
    }

    /// Removes every vector and the record of the embedder that made them, leaving a
    /// full-text-only index (or, opened with an embedder, one whose items get vectors again as
    /// they are indexed again): the first step of re-embedding with another model.
    public func removeVectors() throws(SearchIndexError) {
        try write { (store) throws(SearchIndexError) in
            try writer.execute("DELETE FROM vectors; DELETE FROM meta WHERE key = 'embedder';")
            store.vectorsChanged = true
        }
        vectorsIdentity = embedder?.identity
    }

    public func deleteSearchableItems(withIdentifiers identifiers: [String]) throws(SearchIndexError) {
        try write { (store) throws(SearchIndexError) in try store.delete(identifiers: identifiers) }
    }

    /// Deletes items in these domains and their subdomains (`mail` covers `mail.inbox`).
    public func deleteSearchableItems(withDomainIdentifiers domains: [String]) throws(SearchIndexError) {
        try write { (store) throws(SearchIndexError) in try store.delete(domains: domains) }
    }

    public func deleteAllSearchableItems() throws(SearchIndexError) {
        try write { (store) throws(SearchIndexError) in try store.deleteAll() }
    }

    /// Each call is a transaction of its own, holding the write lock from its start (see
    /// `WriteSession`), or inside a batch a savepoint in the batch's transaction. A failing call
    /// leaves nothing behind.
    ///
    /// Inside a batch, new items' words reach FTS5 in runs (see `ItemStore`), outside any savepoint;
    /// if SQLite fails while writing such a run (a full disk, an I/O error), the whole batch is
    /// rolled back and the error says so.
    private func write(_ body: (ItemStore) throws(SearchIndexError) -> Void) throws(SearchIndexError) {
        if inBatch, store.pendingWordCount >= ItemStore.wordRunLength { try flushBatchWords() }
        if !inBatch { try beginWriteTransaction() }
        let before = store.state
        try writer.execute("SAVEPOINT lantern_write")
        do {
            try body(store)
            if store.vectorsChanged {
                try writer.execute("INSERT INTO meta(key, value) VALUES('vectorGeneration', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1")
                store.vectorsChanged = false
            }
            try store.flushListCounts()
            if !inBatch {
                try store.flushWords()
                try store.saveShortlists()
            }
            try writer.execute("RELEASE lantern_write")
            if !inBatch { try writer.execute("COMMIT") }
        } catch {
            store.state = before
            store.vectorsChanged = false
            try? writer.execute(inBatch ? "ROLLBACK TO lantern_write; RELEASE lantern_write" : "ROLLBACK")
            throw error
        }
        catalogue = nil
    }

    /// Begins a write transaction under the write lock. When another connection (another
    /// process) has committed since this one's last transaction, what the writer keeps between
    /// writes is read again from the file: the word recorder's shortlists and counts, the custom
    /// keys, the earliest expiration.
    private func beginWriteTransaction() throws(SearchIndexError) {
        guard try session.begin() else { return }
        do {
            try store.reloadAfterOtherWriters()
            earliestExpiration = try store.earliestExpiration()
        } catch {
            try? writer.execute("ROLLBACK")
            throw error
        }
        catalogue = nil
    }

    /// Writes the batch's queued words; on failure rolls the batch back, since FTS5 may hold part
    /// of them. The word shortlists they change are saved before the batch commits, or sooner if
    /// the recorder holds too many words.
    private func flushBatchWords() throws(SearchIndexError) {
        try rollingBackBatchOnFailure { () throws(SearchIndexError) in
            try store.flushWords()
            if store.recordedWordCount > ItemStore.recordedWordLimit { try store.saveShortlists() }
        }
    }

    /// Runs batch work that cannot be undone alone (FTS5 runs, index builds); if it fails, the
    /// whole batch is rolled back and the error says so.
    private func rollingBackBatchOnFailure(_ body: () throws(SearchIndexError) -> Void) throws(SearchIndexError) {
        do {
            try body()
        } catch {
            rollBackBatch()
            guard case let .database(message, code, sql) = error else { throw error }
            throw .database(message: message + "; the open batch was rolled back, begin it again", code: code, sql: sql)
        }
    }

    /// Rolls the open batch back: the index is as it was before `beginBatch()`. For a writer that
    /// fails mid-batch and goes on using the index (a Core Spotlight batch has no such call; an
    /// unfinished one ends with the app's process, which undoes it the same way).
    public func abandonBatch() throws(SearchIndexError) {
        guard inBatch else { throw .noBatchInProgress }
        rollBackBatch()
    }

    private func rollBackBatch() {
        try? writer.execute("ROLLBACK")
        if let batchStartState { store.state = batchStartState }
        closeBatch()
    }

    private func closeBatch() {
        inBatch = false
        batchStartState = nil
        batchItemCount = 0
        bulkLoading = false
        droppedIndexes = []
    }

    /// Copies the write-ahead log into the main file and truncates it, so the file alone holds the
    /// index: call it when a write command ends (a process that ends with `exit` or `_exit` never
    /// lets SQLite do it), after a large import, before measuring or copying the file. Returns
    /// false when another process's lock or read kept part of the log out of the file (that
    /// process folds it in when it ends).
    @discardableResult
    public func checkpoint() throws(SearchIndexError) -> Bool {
        guard !inBatch else { throw .unsupportedOperation("checkpoint during an open batch; call endBatch(clientState:) first") }
        return try session.foldLogIntoFile()
    }

    /// Checks every word's shortlist and item count against the full-text index (see
    /// `ShortlistCheck`), in one read of the index; other processes may go on writing meanwhile.
    public func checkShortlists() throws(SearchIndexError) -> ShortlistCheck {
        guard !inBatch else { throw .unsupportedOperation("checking shortlists during an open batch; call endBatch(clientState:) first") }
        try writer.execute("BEGIN")
        defer { try? writer.execute("COMMIT") }
        return try ShortlistCheck.run(on: writer)
    }

    /// Checks every word's shortlist (as `checkShortlists()`) and rebuilds those that disagree
    /// from the full-text index, in one write; returns what the check found before the repair.
    public func repairShortlists() throws(SearchIndexError) -> ShortlistCheck {
        guard !inBatch else { throw .unsupportedOperation("repairing shortlists during an open batch; call endBatch(clientState:) first") }
        try beginWriteTransaction()
        do {
            let check = try ShortlistCheck.run(on: writer)
            try ShortlistCheck.repair(check.disagreements, on: writer)
            try writer.execute("COMMIT")
            // The recorder's copies of the repaired rows are stale (so, after a rollback, are the rows it read).
            writer.recorder?.clear()
            return check
        } catch {
            try? writer.execute("ROLLBACK")
            writer.recorder?.clear()
            throw error
        }
    }

    // MARK: Batches

    /// Opens a batch: writes until `endBatch(clientState:)` commit together with the client state.
    /// A process killed before `endBatch` leaves the index exactly as before `beginBatch`.
    public func beginBatch() throws(SearchIndexError) {
        guard !inBatch else { throw .batchAlreadyInProgress }
        try beginWriteTransaction()
        let size: Int64
        do { size = try writer.query("SELECT max(rowid) FROM items") { $0.integer(0) }.first ?? 0 } catch {
            try? writer.execute("ROLLBACK")
            throw error
        }
        batchStartSize = Int(size)
        inBatch = true
        batchStartState = store.state
    }

    /// Commits the batch and its client state (at most 250 bytes) atomically.
    public func endBatch(clientState: Data) throws(SearchIndexError) {
        guard inBatch else { throw .noBatchInProgress }
        guard clientState.count <= 250 else { throw .clientStateTooLarge(byteCount: clientState.count) }
        try flushBatchWords()
        try rollingBackBatchOnFailure { () throws(SearchIndexError) in
            try store.saveShortlists()
            if bulkLoading { try writer.execute(IndexSchema.ftsBulkLoadFinish + droppedIndexes.map(\.sql).joined(separator: " ")) }
        }
        try writer.run("INSERT OR REPLACE INTO meta(key, value) VALUES('clientState', \(SQLiteValue.blob(Array(clientState))))")
        try writer.execute("COMMIT")
        closeBatch()
    }

    /// The client state of the last committed batch; nil before any.
    public func fetchLastClientState() async throws(SearchIndexError) -> Data? {
        try await read { (database) throws(SearchIndexError) in
            try database.query("SELECT value FROM meta WHERE key = 'clientState'") { $0.blob(0).map { Data($0) } }.first ?? nil
        }
    }

    // MARK: Source

    /// What this index was built from, as `FileSource` or `CorpusSource` recorded it; nil when
    /// neither did (an app's own items, or an index built before sources were recorded).
    public func origin() async throws(SearchIndexError) -> IndexOrigin? {
        try await read { (database) throws(SearchIndexError) in
            try Self.recordedOrigin(in: database)
        }
    }

    private static func recordedOrigin(in database: SQLiteDatabase) throws(SearchIndexError) -> IndexOrigin? {
        let stored = try database.query("SELECT value FROM meta WHERE key = 'source'") { $0.text(0) }.first ?? nil
        return stored.flatMap(IndexOrigin.init(stored:))
    }

    /// Makes `source` the index's recorded source. When another source built it, this throws
    /// `sourceMismatch` and changes nothing, unless `replacing`: then that source's items (and
    /// its batch client state) are deleted first, in the same transaction (or the open batch).
    /// An index without a recorded source takes this one and keeps its items. The caller holds
    /// the `IndexWriterLock`, so no other writer changes the source between this and its refresh.
    func claimOrigin(_ source: IndexOrigin, replacing: Bool) throws(SearchIndexError) {
        try write { (store) throws(SearchIndexError) in
            if let recorded = try Self.recordedOrigin(in: writer), recorded != source {
                guard replacing else { throw .sourceMismatch(path: fileURL.path, recorded: recorded, given: source) }
                try store.deleteAll()
                try writer.run("DELETE FROM meta WHERE key = 'clientState'")
            }
            try writer.run("INSERT OR REPLACE INTO meta(key, value) VALUES('source', \(source.stored))")
        }
    }

    // MARK: Reads

    /// Runs a query; only `fetchAttributes` come back (never `textContent`).
    ///
    /// A query with a `.meaning` part ranks by meaning. On an index with an embedder, a words
    /// query ordered by relevance is hybrid: its BM25 ranking and the ranking of its words by
    /// meaning, both filtered by the rest of the predicate, are fused by reciprocal rank
    /// (`RankFusion`), so an item that shares no word with the query can still be found.
    public func search(_ query: SearchQuery) async throws(SearchIndexError) -> [SearchHit] {
        let executor = try await prepareRead()
        let query = Self.resolvingWordsSearch(query)
        let vector = try await queryVector(for: query)
        return try await readWithVectors { (database, matrix) throws(SearchIndexError) in
            try executor(database).search(query, vector: vector.map { VectorQuery(vector: $0, matrix: matrix) })
        }
    }

    /// Runs a query and counts every item it found, in one read: the page a search tool shows
    /// and the total it states ("10 of 340 shown"). A words-only query counts while it ranks.
    /// Hybrid hits are ranked as `search(_:)` ranks them; the count stays the full-text match's.
    public func searchCountingFoundItems(_ query: SearchQuery) async throws(SearchIndexError) -> SearchResultPage {
        let executor = try await prepareRead()
        let query = Self.resolvingWordsSearch(query)
        let vector = try await queryVector(for: query)
        return try await readWithVectors { (database, matrix) throws(SearchIndexError) in
            try executor(database).searchCountingFoundItems(query, vector: vector.map { VectorQuery(vector: $0, matrix: matrix) })
        }
    }

    /// The query as it runs: with `WordsSearch.meaning`, its top-level words become a search by meaning.
    private static func resolvingWordsSearch(_ query: SearchQuery) -> SearchQuery {
        guard query.wordsSearch == .meaning else { return query }
        var resolved = query
        resolved.predicate = query.predicate.searchingTopLevelWordsByMeaning
        return resolved
    }

    /// The query's text embedded, when it searches by meaning or is hybrid (see `search(_:)`).
    private func queryVector(for query: SearchQuery) async throws(SearchIndexError) -> [Float]? {
        let text: String
        if let meaning = query.predicate.meaningText {
            guard embedder != nil else { throw .noEmbedder(doing: "A search by meaning") }
            text = meaning
        } else if embedder != nil, query.wordsSearch == .hybrid, let words = query.predicate.topLevelWords,
                  query.sort.first == .relevance || query.sort.isEmpty {
            text = words
        } else {
            return nil
        }
        guard let embedder else { return nil }
        return try await Self.embed([text], with: embedder).first
    }

    /// Runs an aggregation over the items matching `predicate`, inside SQLite.
    public func aggregate(_ aggregation: SearchAggregation, where predicate: QueryPredicate = .all) async throws(SearchIndexError) -> AggregationResult {
        let executor = try await prepareRead()
        return try await read { (database) throws(SearchIndexError) in try executor(database).aggregate(aggregation, where: predicate) }
    }

    /// The distinct values of an attribute (each list element counts) with item counts, most
    /// frequent first; `isComplete` tells whether there were at most `limit`.
    public func distinctValues(of attribute: SearchableItemAttribute, limit: Int = 50) async throws(SearchIndexError) -> DistinctValues {
        guard case let .groups(groups, isComplete) = try await aggregate(.groupBy(attribute, limit: limit)) else {
            return DistinctValues(values: [], isComplete: true)
        }
        return DistinctValues(values: groups.map { ($0.key, $0.count) }, isComplete: isComplete)
    }

    /// The domains items are in (`SearchableItem.domainIdentifier`), in order, at most `limit`:
    /// what kinds of thing the index holds ("trails", "files"), which a question's words can name.
    public func domainIdentifiers(limit: Int = 20) async throws(SearchIndexError) -> [String] {
        let executor = try await prepareRead()
        return try await read { (database) throws(SearchIndexError) in try executor(database).domainIdentifiers(limit: limit) }
    }

    /// The attributes present in the index with how many items have each (cached until a write).
    public func attributeCatalogue() async throws(SearchIndexError) -> [AttributeSummary] {
        if let catalogue { return catalogue }
        let executor = try await prepareRead()
        let result = try await read { (database) throws(SearchIndexError) in try executor(database).attributeCatalogue() }
        catalogue = result
        return result
    }

    /// Complete stored items, `textContent` included — the fetch path that search results never
    /// take. Items whose stored text is corrupt are dropped and handed to the delegate to reindex.
    public func fetchItems(identifiers: [String]) async throws -> [SearchableItem] {
        let executor = try await prepareRead()
        let (items, corrupt) = try await read { (database) throws(SearchIndexError) in try executor(database).fetchItems(identifiers: identifiers) }
        if !corrupt.isEmpty { try await refresh(identifiers: corrupt) }
        return items
    }

    /// One place of an item — a passage, a page, or the passage that best matches some words —
    /// so a caller reads page 40 without pages 1–39. Nil when there is no such item (or it has
    /// no text); `passageNotFound` names the passages and pages the item has.
    public func passage(of identifier: String, at place: PassagePlace) async throws(SearchIndexError) -> Passage? {
        let executor = try await prepareRead()
        return try await read { (database) throws(SearchIndexError) in try executor(database).passages.passage(of: identifier, at: place) }
    }

    /// The passages of long items that hold every word of `text`, best first (BM25 over
    /// passages). A short item is one passage and is found by `search`, not here.
    public func passages(matching text: String, limit: Int = 10) async throws(SearchIndexError) -> [(passage: Passage, score: Double)] {
        let executor = try await prepareRead()
        return try await read { (database) throws(SearchIndexError) in try executor(database).passages.passages(matching: text, limit: limit) }
    }

    /// Items from the delegate's hydration method (nil when no delegate is set).
    public func hydratedItems(identifiers: [String]) async -> [SearchableItem]? {
        guard let delegate else { return nil }
        return await delegate.searchableItems(forIdentifiers: identifiers)
    }

    /// The number of items (unexpired).
    public func count(where predicate: QueryPredicate = .all) async throws(SearchIndexError) -> Int {
        guard case .count(let count) = try await aggregate(.count, where: predicate) else { return 0 }
        return count
    }

    // MARK: Rebuilding

    /// Empties the index and asks the delegate to donate every item again.
    public func rebuild() async throws {
        try deleteAllSearchableItems()
        try await delegate?.reindexAllSearchableItems(in: self)
    }

    /// Drops these items and asks the delegate to donate them again.
    public func refresh(identifiers: [String]) async throws {
        try write { (store) throws(SearchIndexError) in
            for identifier in identifiers {
                for rowid in try store.rowids(of: identifier) {
                    // A corrupt row cannot return its words to FTS; drop its row and text so it
                    // stops surfacing (`deleteRow` removed its list and custom values before failing).
                    do throws(SearchIndexError) { try store.deleteRow(rowid, identifier: identifier) } catch {
                        guard case .corruptStoredText = error else { throw error }
                        try store.deleteTextAndRow(rowid)
                    }
                }
            }
        }
        try await delegate?.reindexSearchableItems(withIdentifiers: identifiers, in: self)
    }

    // MARK: Internals

    /// Purges expired items (or, inside a batch, hides them) and snapshots what readers need.
    private func prepareRead() async throws(SearchIndexError) -> @Sendable (SQLiteDatabase) -> QueryExecutor {
        let now = Date()
        var hide: Date?
        if let earliest = earliestExpiration, earliest <= now {
            if inBatch {
                hide = now
            } else {
                try write { (store) throws(SearchIndexError) in _ = try store.purgeExpired(now: now) }
                earliestExpiration = try store.earliestExpiration()
            }
        }
        let compiler = QueryCompiler(customKeys: store.customKeys, timeZone: timeZone)
        let timeZone = timeZone
        return { [hide] database in QueryExecutor(database: database, compiler: compiler, timeZone: timeZone, hideExpiredAt: hide) }
    }

    func read<T: Sendable>(_ body: @Sendable (SQLiteDatabase) throws(SearchIndexError) -> T) async throws(SearchIndexError) -> T {
        try await readWithVectors { (database, _) throws(SearchIndexError) in try body(database) }
    }

    private func readWithVectors<T: Sendable>(_ body: @Sendable (SQLiteDatabase, VectorMatrixCache) throws(SearchIndexError) -> T) async throws(SearchIndexError) -> T {
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue
        return try await readers[index % readers.count].read(body)
    }
}
