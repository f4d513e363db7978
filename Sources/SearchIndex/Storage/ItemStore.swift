import Foundation

/// A custom key as the index records it: the flags from the first write and the kind of value.
struct CustomKeyRecord: Sendable, Hashable {
    var key: CustomAttributeKey
    var kind: AttributeKind
}

/// Writes and deletes items on the writer connection. Owned by the `SearchableIndex` actor.
///
/// Changes to the full-text index are not handed to FTS5 row by row: new items' words, deleted
/// items' words and a delete-all wait in `pendingWords` until `flushWords()`. FTS5 writes a
/// segment whenever a savepoint opens, and every `indexSearchableItems` call is a savepoint, so
/// feeding it per call would cut a large import into thousands of small segments that FTS5 then
/// merges again and again. The owner flushes at the end of each transaction, and inside a batch
/// every `wordRunLength` items. So inside a batch, no write call's savepoint holds a change to
/// FTS5 or to the word recorder's shortlists: a failed call is undone without touching them, and
/// the shortlists are saved once, before the batch commits.
final class ItemStore {
    let database: SQLiteDatabase
    let timeZone: TimeZone
    private(set) var customKeys: [String: CustomKeyRecord]
    private var pendingWords: [Int64: PendingWords] = [:]
    /// Whether FTS5 is to be emptied (before the pending words are added).
    private var pendingDeleteAll = false
    /// How to undo each change to `pendingWords` since the last flush: the rowid and what it
    /// had before (nil: nothing). A rollback replays it backwards, so a snapshot never copies the
    /// queue (which, holding up to `wordRunLength` items, made every call of a batch copy it).
    private var wordUndoLog: [(rowid: Int64, previous: PendingWords?)] = []
    /// Counts flushes; a state from before the last flush had no words pending (every flush ends
    /// a transaction's or a batch's run, and both start with none).
    private var flushGeneration = 0
    private let statements: Statements
    /// Changes to `list_counts` made by the current write call, keyed by attribute and value;
    /// `flushListCounts()` applies them before the call's savepoint is released.
    private var listCountChanges: [ListValue: Int] = [:]
    /// `INSERT INTO list_values` statements by number of rows (one row per element of a list).
    private var listInsertStatements: [Int: SQLiteStatement] = [:]

    private struct ListValue: Hashable {
        var attribute: SearchableItemAttribute, value: String
    }

    /// Inside a batch, words are handed to FTS5 once this many items are waiting (about 30 MiB of
    /// text for notes of ~600 bytes, whose words fit `IndexSchema.ftsHashSize`).
    static let wordRunLength = 50_000

    /// The full-text input of one item, per FTS column, and of its passages (none for an item
    /// that is one passage).
    fileprivate struct Words {
        var title: String, extra: String, body: String
        var passages: [PassageWords] = []
    }

    /// One passage's full-text input: its heading path and its range of the item's body.
    fileprivate struct PassageWords {
        var rowid: Int64, heading: String, bytes: Range<Int>
    }

    /// What FTS5 is to do for one rowid: remove the words of the item it held (already in
    /// FTS5), add the words of the item it holds now, or both (a rowid reused after a delete).
    fileprivate struct PendingWords {
        var removing: Words?, adding: Words?
    }

    /// The write path's statements, prepared once, so no row pays for finding its SQL.
    private struct Statements {
        let insertItem, findItem, insertCustomValue, insertText, insertWords, deleteWords, addListCount: SQLiteStatement
        let saveShortlist, deleteShortlist: SQLiteStatement
        let findLists, deleteListValue, deleteCustomValues, findText, deleteText, deleteItem: SQLiteStatement
        let insertPassage, findPassages, deletePassages, insertPassageWords, deletePassageWords: SQLiteStatement
        let deleteVectors: SQLiteStatement

        init(_ database: SQLiteDatabase) throws(SearchIndexError) {
            insertItem = try database.prepare(ItemStore.insertSQL)
            findItem = try database.prepare("SELECT rowid FROM items WHERE identifier = ?")
            findLists = try database.prepare(
                "SELECT \(IndexSchema.listAttributes.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) FROM items WHERE rowid = ?")
            deleteListValue = try database.prepare("DELETE FROM list_values WHERE attribute = ? AND value = ? AND item = ?")
            deleteCustomValues = try database.prepare("DELETE FROM custom_values WHERE item = ?")
            findText = try database.prepare("SELECT data FROM item_text WHERE rowid = ?")
            deleteText = try database.prepare("DELETE FROM item_text WHERE rowid = ?")
            deleteItem = try database.prepare("DELETE FROM items WHERE rowid = ?")
            insertCustomValue = try database.prepare("INSERT INTO custom_values(item, key, position, text, number, day) VALUES(?, ?, ?, ?, ?, ?)")
            insertText = try database.prepare("INSERT INTO item_text(rowid, data) VALUES(?, ?)")
            insertWords = try database.prepare("INSERT INTO fts(rowid, title, extra, body) VALUES(?, ?, ?, ?)")
            deleteWords = try database.prepare("INSERT INTO fts(fts, rowid, title, extra, body) VALUES('delete', ?, ?, ?, ?)")
            addListCount = try database.prepare("""
                INSERT INTO list_counts(attribute, value, count) VALUES(?, ?, ?)
                ON CONFLICT(attribute, value) DO UPDATE SET count = count + excluded.count
                """)
            saveShortlist = try database.prepare("INSERT OR REPLACE INTO term_shortlists(term, count, data) VALUES(?, ?, ?)")
            deleteShortlist = try database.prepare("DELETE FROM term_shortlists WHERE term = ?")
            insertPassage = try database.prepare(
                "INSERT INTO passages(rowid, start, length, page, firstLine, lastLine, heading) VALUES(?, ?, ?, ?, ?, ?, ?)")
            findPassages = try database.prepare("SELECT rowid, start, length, heading FROM passages WHERE rowid BETWEEN ? AND ? ORDER BY rowid")
            deletePassages = try database.prepare("DELETE FROM passages WHERE rowid BETWEEN ? AND ?")
            insertPassageWords = try database.prepare("INSERT INTO passage_fts(rowid, heading, body) VALUES(?, ?, ?)")
            deletePassageWords = try database.prepare("INSERT INTO passage_fts(passage_fts, rowid, heading, body) VALUES('delete', ?, ?, ?)")
            deleteVectors = try database.prepare("DELETE FROM vectors WHERE rowid BETWEEN ? AND ?")
        }
    }

    /// What a failed write must undo besides the database: custom keys it registered and words it queued.
    struct State {
        fileprivate var customKeys: [String: CustomKeyRecord]
        fileprivate var wordUndoCount: Int
        fileprivate var flushGeneration: Int
        fileprivate var deletingAll: Bool
    }

    init(database: SQLiteDatabase, timeZone: TimeZone) throws(SearchIndexError) {
        self.database = database
        self.timeZone = timeZone
        customKeys = try Self.loadCustomKeys(database)
        statements = try Statements(database)
    }

    /// Forgets what another connection's commit may have made stale: the recorder's shortlists
    /// and item counts (read again from `term_shortlists` as words are met) and the custom keys.
    /// Call at the start of a write transaction, where no words are pending.
    func reloadAfterOtherWriters() throws(SearchIndexError) {
        database.recorder?.clear()
        customKeys = try Self.loadCustomKeys(database)
    }

    /// A snapshot to restore when the transaction or savepoint it was taken at is rolled back.
    var state: State {
        get { State(customKeys: customKeys, wordUndoCount: wordUndoLog.count, flushGeneration: flushGeneration, deletingAll: pendingDeleteAll) }
        set {
            customKeys = newValue.customKeys
            // A snapshot is taken where no count changes are pending (each write call applies its
            // own), so restoring one drops those of the call being rolled back.
            listCountChanges.removeAll()
            pendingDeleteAll = newValue.deletingAll
            guard newValue.flushGeneration == flushGeneration else {
                // Rolled back past a flush: FTS5 and the stored shortlists are as they were, the
                // recorder's shortlists are not.
                pendingWords.removeAll()
                wordUndoLog.removeAll()
                database.recorder?.clear()
                return
            }
            while wordUndoLog.count > newValue.wordUndoCount, let (rowid, previous) = wordUndoLog.popLast() {
                pendingWords[rowid] = previous
            }
        }
    }

    private func setPendingWords(_ change: PendingWords?, for rowid: Int64) {
        let previous = change.map { pendingWords.updateValue($0, forKey: rowid) } ?? pendingWords.removeValue(forKey: rowid)
        if previous != nil || change != nil { wordUndoLog.append((rowid, previous)) }
    }

    var pendingWordCount: Int { pendingWords.count }

    /// Whether a write since the owner last cleared it added or removed vectors (the owner then
    /// bumps `meta.vectorGeneration` in the same transaction, see `VectorMatrixCache`).
    var vectorsChanged = false

    /// Hands the queued changes to FTS5, in rowid order, with the word recorder watching. Call
    /// inside the transaction that wrote the items; then, before it ends, `saveShortlists()`.
    func flushWords() throws(SearchIndexError) {
        do {
            try handPendingWordsToFTS5()
        } catch {
            // The caller rolls FTS5's part of this flush back; the recorder's part goes with it.
            database.recorder?.clear()
            throw error
        }
        pendingWords.removeAll()
        wordUndoLog.removeAll()
        flushGeneration += 1
    }

    private func handPendingWordsToFTS5() throws(SearchIndexError) {
        if pendingDeleteAll {
            database.recorder?.clear()
            try database.execute("""
                DELETE FROM term_shortlists; INSERT INTO fts(fts) VALUES('delete-all'); INSERT INTO passage_fts(passage_fts) VALUES('delete-all');
                """)
            pendingDeleteAll = false
        }
        for rowid in pendingWords.keys.sorted() {
            guard let change = pendingWords[rowid] else { continue }
            if let words = change.removing {
                try recordingWords(of: rowid, sign: -1) { () throws(SearchIndexError) in
                    try statements.deleteWords.run([.integer(rowid), .text(words.title), .text(words.extra), .text(words.body)])
                }
                try handPassages(of: words, to: statements.deletePassageWords)
            }
            if let words = change.adding {
                try recordingWords(of: rowid, sign: 1) { () throws(SearchIndexError) in
                    try statements.insertWords.run([.integer(rowid), .text(words.title), .text(words.extra), .text(words.body)])
                }
                try handPassages(of: words, to: statements.insertPassageWords)
            }
        }
        try database.recorder?.finish()
    }

    /// Adds (or deletes) the words of an item's passages in `passage_fts`; the recorder does not
    /// watch them (shortlists rank items, not passages).
    private func handPassages(of words: Words, to statement: SQLiteStatement) throws(SearchIndexError) {
        guard !words.passages.isEmpty else { return }
        let body = Array(words.body.utf8)
        for passage in words.passages {
            let text = String(decoding: body[passage.bytes.clamped(to: 0..<body.count)], as: UTF8.self)
            try statement.run([.integer(passage.rowid), .text(passage.heading), .text(text)])
        }
    }

    /// Words whose shortlists the recorder holds in memory, saved or not.
    var recordedWordCount: Int { database.recorder?.wordCount ?? 0 }

    /// Runs an FTS5 insert (`sign` 1) or delete (-1) of one document with the recorder watching.
    private func recordingWords(of rowid: Int64, sign: Int32, _ write: () throws(SearchIndexError) -> Void) throws(SearchIndexError) {
        guard let recorder = database.recorder else { return try write() }
        recorder.beginDocument(rowid: rowid, sign: sign)
        try write()
        try recorder.endDocument()
    }

    /// Stores the shortlists that the words FTS5 indexed and deleted since the last call changed,
    /// one write per word. A shortlist that deletes wore down, or a damaged row, is rebuilt with
    /// its item count from FTS5 when its word can be searched for as it is stored (stemming a
    /// stem again almost always gives the stem; when not, the worn shortlist stays and searches
    /// for the word rank every match). Call after
    /// `flushWords()`, before the transaction (outside a batch, the write's savepoint) ends.
    func saveShortlists() throws(SearchIndexError) {
        guard let recorder = database.recorder else { return }
        for index in 0..<recorder.wordCount where recorder.changed(index) {
            let word = recorder.word(index)
            var row = try recorder.save(index)
            if row.needsRebuild, let (rebuilt, itemCount) = try Self.rebuiltShortlist(of: word, in: database) {
                try recorder.replace(index, shortlist: rebuilt, itemCount: itemCount)
                row = (itemCount, rebuilt, false)
            }
            if row.itemCount <= 0 {
                try statements.deleteShortlist.run([.text(word)])
                continue
            }
            try statements.saveShortlist.run([.text(word), .integer(row.itemCount), .blob(row.shortlist)])
        }
        // The recorder keeps every word's shortlist it has met; past this many it starts afresh.
        if recorder.wordCount > Self.recordedWordLimit { recorder.clear() }
    }

    /// A word's shortlist and item count built afresh from FTS5 (`lantern_shortlist` over a
    /// MATCH of the word), or nil when the stored word cannot be searched for as it is (stemming
    /// the stem changes it). Needs the writer's connection (`lantern_term_shape`).
    static func rebuiltShortlist(of word: String, in database: SQLiteDatabase) throws(SearchIndexError) -> (shortlist: [UInt8], itemCount: Int64)? {
        guard database.singleToken(word) == word else { return nil }
        // An FTS5 function cannot be an aggregate's argument; the subquery's ORDER BY keeps
        // SQLite from flattening it, and hands the rows over in rowid order, as it must.
        return try database.query("""
            SELECT lantern_shortlist(rowid, shape), count(*) FROM (SELECT rowid, lantern_term_shape(fts) AS shape FROM fts WHERE fts MATCH \(QueryCompiler.phrase(word)) ORDER BY rowid)
            """) { ($0.blob(0) ?? [], $0.integer(1)) }.first
    }

    /// Words whose shortlists the recorder keeps in memory between writes (about 1–2 KiB each).
    static let recordedWordLimit = 100_000

    /// Applies the write call's changes of list-value counts (one statement per distinct value,
    /// so a thousand notes sharing fifty keywords cost fifty), dropping values no item holds.
    func flushListCounts() throws(SearchIndexError) {
        guard !listCountChanges.isEmpty else { return }
        var removed = false
        for (key, change) in listCountChanges where change != 0 {
            try statements.addListCount.run([IndexSchema.listCode(key.attribute), .text(key.value), .integer(Int64(change))])
            removed = removed || change < 0
        }
        listCountChanges.removeAll()
        if removed { try database.run("DELETE FROM list_counts WHERE count <= 0") }
    }

    static func loadCustomKeys(_ database: SQLiteDatabase) throws(SearchIndexError) -> [String: CustomKeyRecord] {
        let rows = try database.query(
            "SELECT key, kind, searchable, searchableByDefault, isUnique, multiValued FROM custom_keys") { row -> CustomKeyRecord? in
            guard let name = row.text(0), let kind = row.text(1).flatMap(AttributeKind.init(rawValue:)),
                  let key = CustomAttributeKey(keyName: name, searchable: row.integer(2) != 0,
                                               searchableByDefault: row.integer(3) != 0,
                                               unique: row.integer(4) != 0, multiValued: row.integer(5) != 0)
            else { return nil }
            return CustomKeyRecord(key: key, kind: kind)
        }
        return Dictionary(rows.compactMap { $0 }.map { ($0.key.keyName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The columns an insert binds first, in this order (each case is the column's name), before
    /// the attribute columns (`Slot`).
    private enum Leading: Int, CaseIterable {
        case identifier, domain, expiration, textLength
    }

    private static let insertSQL: String = {
        var names = Leading.allCases.map { "\($0)" }
        for (attribute, kind) in IndexSchema.columns {
            names.append(attribute.rawValue)
            if kind == .date { names.append(IndexSchema.dayColumn(attribute)) }
        }
        let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return "INSERT INTO items(\(quoted)) VALUES(\(marks)) ON CONFLICT(identifier) DO NOTHING"
    }()

    /// Where each standard attribute goes in `insertSQL`'s bindings (after the `Leading` ones), so
    /// an item costs one lookup per attribute it has rather than one per column.
    private struct Slot {
        var binding: Int, kind: AttributeKind, order: Int, inExtraText: Bool
    }

    private static let slots: (byAttribute: [SearchableItemAttribute: Slot], count: Int) = {
        var slots: [SearchableItemAttribute: Slot] = [:]
        var binding = Leading.allCases.count
        for (order, (attribute, kind)) in IndexSchema.columns.enumerated() {
            let extra = SearchableItemAttribute.fullTextSearchable.contains(attribute) && attribute != .title && attribute != .displayName
            slots[attribute] = Slot(binding: binding, kind: kind, order: order, inExtraText: extra)
            binding += kind == .date ? 2 : 1
        }
        return (slots, binding)
    }()

    /// Inserts or replaces an item (by `uniqueIdentifier`); a replaced item's vectors go with
    /// it, and the embedding pass gives the new text its own. Call inside a transaction or savepoint.
    func upsert(_ item: SearchableItem) throws(SearchIndexError) {
        guard !item.uniqueIdentifier.isEmpty else { throw .emptyIdentifier }
        let custom = try customValues(of: item.attributeSet)
        let set = item.attributeSet
        let body = set.textContent.map(Self.clean)
        // Identifiers are bound and read with their length, so they are kept exactly: turning a NUL
        // into a space (as text attributes are) would merge "a\0b" into "a b".
        let identifier = item.uniqueIdentifier
        var bindings = [SQLiteValue](repeating: .null, count: Self.slots.count)
        bindings[Leading.identifier.rawValue] = .text(identifier)
        bindings[Leading.domain.rawValue] = item.domainIdentifier.map { .text($0) } ?? .null
        bindings[Leading.expiration.rawValue] = item.expirationDate.map { .real($0.timeIntervalSince1970) } ?? .null
        bindings[Leading.textLength.rawValue] = body.map { .integer(Int64($0.utf8.count)) } ?? .null
        var lists: [(SearchableItemAttribute, [String])] = []
        var extraParts: [(order: Int, texts: [String])] = []
        for (attribute, value) in set.values {
            guard let slot = Self.slots.byAttribute[attribute] else { continue } // custom, or textContent
            guard value.kind == slot.kind else {
                throw .attributeKindMismatch(attribute: attribute.rawValue, expected: slot.kind, found: value.kind)
            }
            switch value {
            case .string(let text):
                let cleaned = Self.clean(text)
                bindings[slot.binding] = .text(cleaned)
                if slot.inExtraText { extraParts.append((slot.order, [cleaned])) }
            case .strings(let list):
                let cleaned = Self.cleanList(list)
                bindings[slot.binding] = .text(cleaned.joined(separator: String(IndexSchema.listSeparator)))
                lists.append((attribute, cleaned))
                if slot.inExtraText { extraParts.append((slot.order, cleaned)) }
            case .number(let number): bindings[slot.binding] = number.isFinite ? .real(number) : .null
            case .date(let date):
                bindings[slot.binding] = .real(date.timeIntervalSince1970)
                bindings[slot.binding + 1] = .integer(DayNumber.of(date, in: timeZone))
            }
        }
        // A new identifier (the common case) costs one insert; an existing one is replaced.
        try statements.insertItem.run(bindings)
        if database.changes == 0 {
            for existing in try rowids(of: identifier) {
                try deleteRow(existing, identifier: item.uniqueIdentifier)
            }
            try statements.insertItem.run(bindings)
        }
        let rowid = database.lastInsertedRowID

        for (attribute, cleaned) in lists { try insertListValues(attribute, Set(cleaned), rowid) }
        var customText: [String] = []
        for (record, value) in custom {
            switch value {
            case .string(let text):
                try insertCustom(record.key.keyName, rowid, text: Self.clean(text))
                if record.key.isSearchableByDefault { customText.append(Self.clean(text)) }
            case .strings(let list):
                var stored = Set<String>()
                for element in Self.cleanList(list) where stored.insert(element).inserted {
                    try insertCustom(record.key.keyName, rowid, position: stored.count - 1, text: element)
                }
                if record.key.isSearchableByDefault { customText += Self.cleanList(list) }
            case .number(let number):
                try insertCustom(record.key.keyName, rowid, number: number.isFinite ? number : nil)
            case .date(let date):
                try insertCustom(record.key.keyName, rowid, number: date.timeIntervalSince1970,
                                 day: DayNumber.of(date, in: timeZone))
            }
        }
        let title = [set.title, set.displayName].compactMap { $0.map(Self.clean) }.joined(separator: "\n")
        let extra = (extraParts.sorted { $0.order < $1.order }.flatMap(\.texts) + customText).joined(separator: "\n")
        try statements.insertText.run([.integer(rowid), .blob(TextCompression.encode(title + "\u{0}" + extra + "\u{0}" + (body ?? "")))])
        let passages = try insertPassages(of: body, contentType: set.contentType, item: rowid)
        var change = pendingWords[rowid] ?? PendingWords()
        change.adding = Words(title: title, extra: extra, body: body ?? "", passages: passages)
        setPendingWords(change, for: rowid)
    }

    /// The passages an item's text is stored as when it splits into more than one (a short
    /// text is its own one passage: none), at most `IndexSchema.passagesPerItem`, the last of
    /// which runs to the end of the text.
    static func storedPassageSpans(of body: String?, contentType: String?) -> [PassageSpan] {
        // Most items are short notes: one passage, told without splitting (memchr for a page break).
        guard let body, body.utf8.count > PassageSplitter.maximumBytes || contains(body, byte: PassageSplitter.formFeed) else { return [] }
        let spans = PassageSplitter.spans(of: body, markdown: PassageSplitter.isMarkdown(contentType))
        guard spans.count > 1 else { return [] }
        var kept = Array(spans.prefix(IndexSchema.passagesPerItem))
        if let last = kept.indices.last, spans.count > kept.count { kept[last].length = spans[spans.count - 1].end - kept[last].start }
        return kept
    }

    /// Stores the passages of an item's text when it splits into more than one (a short text is
    /// its own one passage and stores nothing), returning their full-text input.
    private func insertPassages(of body: String?, contentType: String?, item: Int64) throws(SearchIndexError) -> [PassageWords] {
        try Self.storedPassageSpans(of: body, contentType: contentType).enumerated().map { (index, span) throws(SearchIndexError) in
            let rowid = IndexSchema.passageRowid(item: item, index: index)
            let heading = span.location.headingPath.joined(separator: String(IndexSchema.listSeparator))
            try statements.insertPassage.run([
                .integer(rowid), .integer(Int64(span.start)), .integer(Int64(span.length)),
                span.location.page.map { .integer(Int64($0)) } ?? .null,
                .integer(Int64(span.location.lines.lowerBound)), .integer(Int64(span.location.lines.upperBound)), .text(heading),
            ])
            return PassageWords(rowid: rowid, heading: heading, bytes: span.start..<span.end)
        }
    }

    /// A list's elements in one statement (one VALUES row each), so a note's three keywords cost
    /// one statement execution rather than three; the statement for each count is prepared once.
    private func insertListValues(_ attribute: SearchableItemAttribute, _ elements: Set<String>, _ rowid: Int64) throws(SearchIndexError) {
        guard !elements.isEmpty else { return }
        var bindings: [SQLiteValue] = []
        bindings.reserveCapacity(elements.count * 3)
        let code = IndexSchema.listCode(attribute)
        for element in elements {
            bindings += [code, .text(element), .integer(rowid)]
            listCountChanges[ListValue(attribute: attribute, value: element), default: 0] += 1
        }
        try listInsertStatement(rows: elements.count).run(bindings)
    }

    private func listInsertStatement(rows: Int) throws(SearchIndexError) -> SQLiteStatement {
        if let statement = listInsertStatements[rows] { return statement }
        let values = Array(repeating: "(?, ?, ?)", count: rows).joined(separator: ", ")
        let statement = try database.prepare("INSERT OR IGNORE INTO list_values(attribute, value, item) VALUES \(values)")
        listInsertStatements[rows] = statement
        return statement
    }

    private func insertCustom(_ key: String, _ rowid: Int64, position: Int = 0, text: String? = nil, number: Double? = nil,
                              day: Int64? = nil) throws(SearchIndexError) {
        try statements.insertCustomValue.run([.integer(rowid), .text(key), .integer(Int64(position)), text.map(SQLiteValue.text) ?? .null,
                                              number.map(SQLiteValue.real) ?? .null, day.map(SQLiteValue.integer) ?? .null])
    }

    /// The custom values of a set, with their keys registered (and kinds checked) first.
    private func customValues(of set: SearchableItemAttributeSet) throws(SearchIndexError) -> [(CustomKeyRecord, AttributeValue)] {
        var result: [(CustomKeyRecord, AttributeValue)] = []
        for (attribute, value) in set.values where attribute.standardKind == nil {
            if let record = customKeys[attribute.rawValue] {
                guard record.kind == value.kind else {
                    throw .attributeKindMismatch(attribute: attribute.rawValue, expected: record.kind, found: value.kind)
                }
                result.append((record, value))
                continue
            }
            guard let key = set.customKeys[attribute] ?? CustomAttributeKey(keyName: attribute.rawValue) else {
                throw .unknownAttribute(attribute.rawValue)
            }
            let record = CustomKeyRecord(key: key, kind: value.kind)
            try database.run("""
                INSERT OR REPLACE INTO custom_keys(key, kind, searchable, searchableByDefault, isUnique, multiValued)
                VALUES(\(key.keyName), \(value.kind.rawValue), \(key.isSearchable ? 1 : 0), \(key.isSearchableByDefault ? 1 : 0), \
                \(key.isUnique ? 1 : 0), \(key.isMultiValued ? 1 : 0))
                """)
            customKeys[key.keyName] = record
            result.append((record, value))
        }
        return result
    }

    /// Deletes one item and every trace of it: its list and custom values, stored text, its row,
    /// and (at the next `flushWords()`) its words in the full-text index. List and custom values go first, so that when the
    /// stored text turns out corrupt (and this throws) they are already gone and the caller only
    /// has to remove the text and the row.
    func deleteRow(_ rowid: Int64, identifier: String) throws(SearchIndexError) {
        let lists = try statements.findLists.query([.integer(rowid)]) { row in
            (0..<IndexSchema.listAttributes.count).map { row.text($0) }
        }.first ?? []
        for (attribute, joined) in zip(IndexSchema.listAttributes, lists) {
            guard let joined else { continue }
            for element in Set(joined.split(separator: IndexSchema.listSeparator).map(String.init)) {
                try statements.deleteListValue.run([IndexSchema.listCode(attribute), .text(element), .integer(rowid)])
                if database.changes > 0 { listCountChanges[ListValue(attribute: attribute, value: element), default: 0] -= 1 }
            }
        }
        try statements.deleteCustomValues.run([.integer(rowid)])
        if var change = pendingWords[rowid], change.adding != nil {
            // Its words never reached FTS5.
            change.adding = nil
            setPendingWords(change.removing == nil ? nil : change, for: rowid)
        } else if let stored = try statements.findText.query([.integer(rowid)], { $0.blob(0) }).first {
            guard let stored, let text = TextCompression.decode(stored) else { throw .corruptStoredText(identifier: identifier) }
            let parts = text.split(separator: "\u{0}", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { throw .corruptStoredText(identifier: identifier) }
            let (first, last) = IndexSchema.passageRowids(item: rowid)
            let passages = try statements.findPassages.query([.integer(first), .integer(last)]) { row in
                PassageWords(rowid: row.integer(0), heading: row.text(3) ?? "",
                             bytes: Int(row.integer(1))..<Int(row.integer(1) + row.integer(2)))
            }
            setPendingWords(PendingWords(removing: Words(title: parts[0], extra: parts[1], body: parts[2], passages: passages)), for: rowid)
        }
        try deleteTextAndRow(rowid)
    }

    /// Deletes an item's stored text, passages, vectors and row (what is left of an item whose stored
    /// text is corrupt once `deleteRow` has failed on it).
    func deleteTextAndRow(_ rowid: Int64) throws(SearchIndexError) {
        let (first, last) = IndexSchema.passageRowids(item: rowid)
        try statements.deletePassages.run([.integer(first), .integer(last)])
        try statements.deleteVectors.run([.integer(first), .integer(last)])
        if database.changes > 0 { vectorsChanged = true }
        try statements.deleteText.run([.integer(rowid)])
        try statements.deleteItem.run([.integer(rowid)])
    }

    /// The rowids of the item with this identifier (none when there is no such item).
    func rowids(of identifier: String) throws(SearchIndexError) -> [Int64] {
        try statements.findItem.query([.text(identifier)], { $0.integer(0) })
    }

    /// Deletes the items with these identifiers; unknown identifiers are ignored.
    func delete(identifiers: [String]) throws(SearchIndexError) {
        for identifier in identifiers {
            for rowid in try rowids(of: identifier) { try deleteRow(rowid, identifier: identifier) }
        }
    }

    /// Deletes items whose domain is one of these or nested under one (`a` covers `a.b`).
    func delete(domains: [String]) throws(SearchIndexError) {
        for domain in domains {
            let rows = try database.query(
                "SELECT rowid, identifier FROM items WHERE domain = \(domain) OR (domain >= \(domain + ".") AND domain < \(domain + "/"))"
            ) { ($0.integer(0), $0.text(1) ?? "") }
            for (rowid, identifier) in rows { try deleteRow(rowid, identifier: identifier) }
        }
    }

    func deleteAll() throws(SearchIndexError) {
        for rowid in Array(pendingWords.keys) { setPendingWords(nil, for: rowid) }
        listCountChanges.removeAll()
        pendingDeleteAll = true
        try database.execute("""
            DELETE FROM items; DELETE FROM item_text; DELETE FROM list_values; DELETE FROM list_counts; DELETE FROM custom_values;
            DELETE FROM passages; DELETE FROM vectors;
            """)
        vectorsChanged = true
    }

    /// Deletes items whose expiration date has passed; returns how many.
    func purgeExpired(now: Date) throws(SearchIndexError) -> Int {
        let rows = try database.query(
            "SELECT rowid, identifier FROM items WHERE expiration IS NOT NULL AND expiration <= \(now.timeIntervalSince1970)"
        ) { ($0.integer(0), $0.text(1) ?? "") }
        for (rowid, identifier) in rows { try deleteRow(rowid, identifier: identifier) }
        return rows.count
    }

    func earliestExpiration() throws(SearchIndexError) -> Date? {
        try database.query("SELECT min(expiration) FROM items WHERE expiration IS NOT NULL") { row in
            row.isNull(0) ? nil : Date(timeIntervalSince1970: row.double(0))
        }.first ?? nil
    }

    /// Attribute text loses its NULs (each becomes a space, never an error): FTS5 and the C
    /// string functions SQLite calls on it would cut it there. Identifiers are not cleaned.
    static func clean(_ text: String) -> String {
        contains(text, byte: 0) ? text.replacingOccurrences(of: "\u{0}", with: " ") : text
    }

    /// Whether `text`'s UTF-8 holds `byte`, searched with memchr over native strings (every
    /// item's body passes here, and the generic element-by-element scan showed in profiles).
    static func contains(_ text: String, byte: UInt8) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.map { memchr($0, Int32(byte), bytes.count) != nil } ?? false
        } ?? text.utf8.contains(byte)
    }

    static func cleanList(_ list: [String]) -> [String] {
        list.map { element in
            let cleaned = clean(element)
            return contains(cleaned, byte: 0x1F) ? cleaned.replacingOccurrences(of: String(IndexSchema.listSeparator), with: " ") : cleaned
        }.filter { !$0.isEmpty }
    }
}
