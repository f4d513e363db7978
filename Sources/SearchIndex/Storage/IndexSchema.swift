import Foundation

/// The SQLite schema of an index file, designed for a million items.
///
/// - `items`: one row per item, one typed column per standard attribute (numbers and dates as
///   REAL, dates also as an INTEGER day number for grouping), lists joined with U+001F. Partial
///   indexes (`WHERE col IS NOT NULL`) on numbers, (day, date) pairs and facet strings make
///   filters, sorts and groupings index walks while costing nothing for absent attributes.
/// - `item_text`: the full-text input of each item (title, other searchable text, textContent),
///   compressed when that pays, kept out of `items` so scans of `items` stay narrow.
/// - `fts`: a contentless FTS5 table (unicode61, diacritics removed): the words only. Deleting an
///   item deletes its words using the stored input, so nothing of its text remains searchable.
/// - `list_values`, `custom_values`: membership and grouping of list elements and custom keys.
enum IndexSchema {
    static let version = 2

    /// Standard attributes stored as `items` columns (textContent lives in `item_text`).
    static let columns: [(attribute: SearchableItemAttribute, kind: AttributeKind)] =
        SearchableItemAttribute.standard.filter { $0.attribute != .textContent }

    /// Strings with few distinct values, worth an index for equality and grouping.
    static let facetStrings: [SearchableItemAttribute] = [
        .contentType, .namedLocation, .stateOrProvince, .city, .country, .creator,
    ]

    /// Bytes of words FTS5 gathers in memory before writing a segment (its default is 1 MiB).
    /// Larger first segments mean fewer, cheaper merges over a large import: ItemStore hands the
    /// words of a batch to FTS5 in runs of `ItemStore.wordRunLength` items, which fit in this.
    static let ftsHashSize = 32 << 20

    static func dayColumn(_ attribute: SearchableItemAttribute) -> String { "\(attribute.rawValue)_day" }

    static var createStatements: String {
        var columnDefinitions: [String] = []
        var indexes: [String] = []
        func partialIndex(_ column: String) {
            indexes.append("CREATE INDEX IF NOT EXISTS \"items_\(column)\" ON items(\"\(column)\") WHERE \"\(column)\" IS NOT NULL;")
        }
        for (attribute, kind) in columns {
            let name = attribute.rawValue
            switch kind {
            case .string, .strings: columnDefinitions.append("\"\(name)\" TEXT")
            case .number:
                columnDefinitions.append("\"\(name)\" REAL")
                partialIndex(name)
            case .date:
                // One index per date, (day, instant): grouping walks its day prefix, and date
                // filters add a day range (see `QueryCompiler`) so they walk it too.
                let day = dayColumn(attribute)
                columnDefinitions.append("\"\(name)\" REAL")
                columnDefinitions.append("\"\(day)\" INTEGER")
                indexes.append("CREATE INDEX IF NOT EXISTS \"items_\(name)\" ON items(\"\(day)\", \"\(name)\") WHERE \"\(day)\" IS NOT NULL;")
            }
        }
        facetStrings.forEach { partialIndex($0.rawValue) }
        partialIndex("domain")
        partialIndex("expiration")
        return """
        CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS items(
            rowid INTEGER PRIMARY KEY,
            identifier TEXT NOT NULL UNIQUE,
            domain TEXT,
            expiration REAL,
            textLength INTEGER,
            \(columnDefinitions.joined(separator: ",\n    "))
        );
        \(indexes.joined(separator: "\n"))
        CREATE TABLE IF NOT EXISTS item_text(rowid INTEGER PRIMARY KEY, data BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS list_values(
            attribute TEXT NOT NULL, value TEXT NOT NULL, item INTEGER NOT NULL,
            PRIMARY KEY(attribute, value, item)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS custom_keys(
            key TEXT PRIMARY KEY, kind TEXT NOT NULL, searchable INTEGER NOT NULL,
            searchableByDefault INTEGER NOT NULL, isUnique INTEGER NOT NULL, multiValued INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS custom_values(
            key TEXT NOT NULL, item INTEGER NOT NULL, text TEXT, number REAL, day INTEGER);
        CREATE INDEX IF NOT EXISTS custom_by_item ON custom_values(item);
        CREATE INDEX IF NOT EXISTS custom_text ON custom_values(key, text) WHERE text IS NOT NULL;
        CREATE INDEX IF NOT EXISTS custom_number ON custom_values(key, number) WHERE number IS NOT NULL;
        CREATE INDEX IF NOT EXISTS custom_day ON custom_values(key, day) WHERE day IS NOT NULL;
        CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
            title, extra, body, content='', tokenize='unicode61 remove_diacritics 2');
        INSERT INTO fts(fts, rank) VALUES('rank', 'bm25(8.0, 2.0, 1.0)');
        INSERT INTO fts(fts, rank) VALUES('hashsize', \(ftsHashSize));
        """
    }

    static let dropStatements = """
        DROP TABLE IF EXISTS items; DROP TABLE IF EXISTS item_text; DROP TABLE IF EXISTS list_values;
        DROP TABLE IF EXISTS custom_keys; DROP TABLE IF EXISTS custom_values; DROP TABLE IF EXISTS fts;
        DROP TABLE IF EXISTS meta;
        """

    /// The column list of an `items` SELECT that `ItemRowDecoder` reads, in order.
    static let selectColumns: String = {
        var names = ["i.rowid", "i.identifier", "i.domain", "i.expiration"]
        names += columns.map { "i.\"\($0.attribute.rawValue)\"" }
        return names.joined(separator: ", ")
    }()

    /// Joins list elements for the `items` column (U+001F cannot occur in stored elements).
    static let listSeparator: Character = "\u{1F}"
}
