import Foundation

/// A custom key as the index records it: the flags from the first write and the kind of value.
struct CustomKeyRecord: Sendable, Hashable {
    var key: CustomAttributeKey
    var kind: AttributeKind
}

/// Writes and deletes items on the writer connection. Owned by the `SearchableIndex` actor.
final class ItemStore {
    let database: SQLiteDatabase
    let timeZone: TimeZone
    private(set) var customKeys: [String: CustomKeyRecord]

    init(database: SQLiteDatabase, timeZone: TimeZone) throws(SearchIndexError) {
        self.database = database
        self.timeZone = timeZone
        customKeys = try Self.loadCustomKeys(database)
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

    private static let insertSQL: String = {
        var names = ["identifier", "domain", "expiration", "textLength"]
        for (attribute, kind) in IndexSchema.columns {
            names.append(attribute.rawValue)
            if kind == .date { names.append(IndexSchema.dayColumn(attribute)) }
        }
        let quoted = names.map { "\"\($0)\"" }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: names.count).joined(separator: ", ")
        return "INSERT INTO items(\(quoted)) VALUES(\(marks))"
    }()

    private static let listColumns = IndexSchema.columns.filter { $0.kind == .strings }.map(\.attribute)
    private static let listSelectSQL =
        "SELECT \(listColumns.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) FROM items WHERE rowid = ?"

    /// Inserts or replaces an item (by `uniqueIdentifier`). Call inside a transaction or savepoint.
    func upsert(_ item: SearchableItem) throws(SearchIndexError) {
        guard !item.uniqueIdentifier.isEmpty else { throw .emptyIdentifier }
        let custom = try customValues(of: item.attributeSet)
        if let existing = try database.query("SELECT rowid FROM items WHERE identifier = ?",
                                             [.text(item.uniqueIdentifier)], { $0.integer(0) }).first {
            try deleteRow(existing, identifier: item.uniqueIdentifier)
        }
        let set = item.attributeSet
        let body = set.textContent.map(Self.clean)
        var bindings: [SQLiteValue] = [
            .text(Self.clean(item.uniqueIdentifier)),
            item.domainIdentifier.map { .text(Self.clean($0)) } ?? .null,
            item.expirationDate.map { .real($0.timeIntervalSince1970) } ?? .null,
            body.map { .integer(Int64($0.utf8.count)) } ?? .null,
        ]
        bindings.reserveCapacity(48)
        for (attribute, kind) in IndexSchema.columns {
            let value = set[attribute]
            if let value, value.kind != kind {
                throw .attributeKindMismatch(attribute: attribute.rawValue, expected: kind, found: value.kind)
            }
            switch value {
            case .string(let text): bindings.append(.text(Self.clean(text)))
            case .strings(let list): bindings.append(.text(Self.cleanList(list).joined(separator: String(IndexSchema.listSeparator))))
            case .number(let number): bindings.append(number.isFinite ? .real(number) : .null)
            case .date(let date):
                bindings.append(.real(date.timeIntervalSince1970))
                bindings.append(.integer(DayNumber.of(date, in: timeZone)))
            case nil:
                bindings.append(.null)
                if kind == .date { bindings.append(.null) }
            }
        }
        try database.run(Self.insertSQL, bindings)
        let rowid = database.lastInsertedRowID

        for attribute in Self.listColumns {
            for element in Set(Self.cleanList(set[attribute]?.stringsValue ?? [])) {
                try database.run("INSERT OR IGNORE INTO list_values(attribute, value, item) VALUES(?, ?, ?)",
                                 [.text(attribute.rawValue), .text(element), .integer(rowid)])
            }
        }
        var customText: [String] = []
        for (record, value) in custom {
            switch value {
            case .string(let text):
                try insertCustom(record.key.keyName, rowid, text: Self.clean(text))
                if record.key.isSearchableByDefault { customText.append(Self.clean(text)) }
            case .strings(let list):
                var stored = Set<String>()
                for element in Self.cleanList(list) where stored.insert(element).inserted {
                    try insertCustom(record.key.keyName, rowid, text: element)
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
        var extraParts: [String] = []
        for attribute in SearchableItemAttribute.fullTextSearchable where attribute != .title
            && attribute != .displayName && attribute != .textContent {
            switch set[attribute] {
            case .string(let text): extraParts.append(Self.clean(text))
            case .strings(let list): extraParts += Self.cleanList(list)
            default: break
            }
        }
        let extra = (extraParts + customText).joined(separator: "\n")
        try database.run("INSERT INTO item_text(rowid, data) VALUES(?, ?)",
                         [.integer(rowid), .blob(TextCompression.encode(title + "\u{0}" + extra + "\u{0}" + (body ?? "")))])
        try database.run("INSERT INTO fts(rowid, title, extra, body) VALUES(?, ?, ?, ?)",
                         [.integer(rowid), .text(title), .text(extra), .text(body ?? "")])
    }

    private func insertCustom(_ key: String, _ rowid: Int64, text: String? = nil, number: Double? = nil,
                              day: Int64? = nil) throws(SearchIndexError) {
        try database.run("INSERT INTO custom_values(key, item, text, number, day) VALUES(?, ?, ?, ?, ?)",
                         [.text(key), .integer(rowid), text.map(SQLiteValue.text) ?? .null,
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
                VALUES(?, ?, ?, ?, ?, ?)
                """, [.text(key.keyName), .text(value.kind.rawValue), .integer(key.isSearchable ? 1 : 0),
                      .integer(key.isSearchableByDefault ? 1 : 0), .integer(key.isUnique ? 1 : 0),
                      .integer(key.isMultiValued ? 1 : 0)])
            customKeys[key.keyName] = record
            result.append((record, value))
        }
        return result
    }

    /// Deletes one item and every trace of it: its row, list and custom values, stored text and
    /// the words in the full-text index.
    func deleteRow(_ rowid: Int64, identifier: String) throws(SearchIndexError) {
        if let stored = try database.query("SELECT data FROM item_text WHERE rowid = ?", [.integer(rowid)], { $0.blob(0) }).first {
            guard let stored, let text = TextCompression.decode(stored) else { throw .corruptStoredText(identifier: identifier) }
            let parts = text.split(separator: "\u{0}", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else { throw .corruptStoredText(identifier: identifier) }
            try database.run("INSERT INTO fts(fts, rowid, title, extra, body) VALUES('delete', ?, ?, ?, ?)",
                             [.integer(rowid), .text(parts[0]), .text(parts[1]), .text(parts[2])])
            try database.run("DELETE FROM item_text WHERE rowid = ?", [.integer(rowid)])
        }
        let lists = try database.query(Self.listSelectSQL, [.integer(rowid)]) { row in
            (0..<Self.listColumns.count).map { row.text($0) }
        }.first ?? []
        for (attribute, joined) in zip(Self.listColumns, lists) {
            guard let joined else { continue }
            for element in Set(joined.split(separator: IndexSchema.listSeparator).map(String.init)) {
                try database.run("DELETE FROM list_values WHERE attribute = ? AND value = ? AND item = ?",
                                 [.text(attribute.rawValue), .text(element), .integer(rowid)])
            }
        }
        try database.run("DELETE FROM custom_values WHERE item = ?", [.integer(rowid)])
        try database.run("DELETE FROM items WHERE rowid = ?", [.integer(rowid)])
    }

    /// Deletes the items with these identifiers; unknown identifiers are ignored.
    func delete(identifiers: [String]) throws(SearchIndexError) {
        for identifier in identifiers {
            for rowid in try database.query("SELECT rowid FROM items WHERE identifier = ?", [.text(identifier)], { $0.integer(0) }) {
                try deleteRow(rowid, identifier: identifier)
            }
        }
    }

    /// Deletes items whose domain is one of these or nested under one (`a` covers `a.b`).
    func delete(domains: [String]) throws(SearchIndexError) {
        for domain in domains {
            let rows = try database.query(
                "SELECT rowid, identifier FROM items WHERE domain = ? OR (domain >= ? AND domain < ?)",
                [.text(domain), .text(domain + "."), .text(domain + "/")]) { ($0.integer(0), $0.text(1) ?? "") }
            for (rowid, identifier) in rows { try deleteRow(rowid, identifier: identifier) }
        }
    }

    func deleteAll() throws(SearchIndexError) {
        try database.execute("""
            DELETE FROM items; DELETE FROM item_text; DELETE FROM list_values; DELETE FROM custom_values;
            INSERT INTO fts(fts) VALUES('delete-all');
            """)
    }

    /// Deletes items whose expiration date has passed; returns how many.
    func purgeExpired(now: Date) throws(SearchIndexError) -> Int {
        let rows = try database.query(
            "SELECT rowid, identifier FROM items WHERE expiration IS NOT NULL AND expiration <= ?",
            [.real(now.timeIntervalSince1970)]) { ($0.integer(0), $0.text(1) ?? "") }
        for (rowid, identifier) in rows { try deleteRow(rowid, identifier: identifier) }
        return rows.count
    }

    func earliestExpiration() throws(SearchIndexError) -> Date? {
        try database.query("SELECT min(expiration) FROM items WHERE expiration IS NOT NULL") { row in
            row.isNull(0) ? nil : Date(timeIntervalSince1970: row.double(0))
        }.first ?? nil
    }

    /// SQLite text cannot carry NUL through the C API; it becomes a space (never an error).
    static func clean(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\u{0}", with: " ") : text
    }

    static func cleanList(_ list: [String]) -> [String] {
        list.map { clean($0).replacingOccurrences(of: String(IndexSchema.listSeparator), with: " ") }.filter { !$0.isEmpty }
    }
}
