import Foundation

/// The SQLite schema of an index file, designed for a million items.
///
/// - `items`: one row per item, one typed column per standard attribute (numbers and dates as
///   REAL, dates also as an INTEGER day number for grouping), lists joined with U+001F. Partial
///   indexes (`WHERE col IS NOT NULL`) on numbers, (day, date) pairs and facet strings make
///   filters, sorts and groupings index walks while costing nothing for absent attributes.
/// - `item_text`: the full-text input of each item (title, other searchable text, textContent),
///   compressed when that pays, kept out of `items` so scans of `items` stay narrow.
/// - `fts`: a contentless FTS5 table (English stemming over unicode61, diacritics removed): the
///   words only, so "lakes" finds "lake" and "hiking" finds "hikes". Deleting an item deletes its
///   words using the stored input, so nothing of its text remains searchable. Its tokenizer,
///   "lantern" (CFullText), is that stemmer plus a recorder on the writer, which keeps
///   `term_shortlists`.
/// - `term_shortlists`: per indexed word, how many items hold it and its shortlist, the items
///   that can rank in its top `LANTERN_SHORTLIST_DEPTH` (see `TermShortlist`), so a one-word
///   search ranks a few dozen items instead of every item holding the word.
/// - `list_counts`: how many items hold each list element, kept by every write, so grouping a
///   million items by keyword reads one row per distinct keyword instead of every membership row.
/// - `passages` and `passage_fts`: the passages of items whose text splits into more than one
///   (`PassageSplitter`: pages, headings, paragraphs), each a byte range of the stored text with
///   its page, lines and heading path, and their words in a second contentless FTS5 table
///   (heading, body), so a long document's best passage for a query is one indexed lookup. A
///   passage's rowid is its item's rowid times 2^20 plus its index (`passageRowid`), so an item's
///   passages are one rowid range in both tables, and FTS5 ranks them with a rowid bound. Short
///   items have no rows: their whole text is their one passage.
/// - `vectors`: when the index has an embedder, one vector per sentence piece of each passage
///   (`PassageEmbeddingText`; `QuantizedVector`: int8 with a per-vector scale), keyed like
///   passages (the item's rowid times 2^20 plus the piece's number), with the passage it
///   belongs to (a short item's one passage is 0), its number among the passage's pieces and
///   the hash of the text it was made from (`EmbeddingPass.hash`, indexed), so a piece whose
///   text the index already holds reuses that vector instead of embedding it again. Written
///   after the item's text, by the embedding pass (`EmbeddingPass`), deleted with the item; an
///   item has a vector for every piece or none. `meta` records the embedder (`embedder`) and a
///   stamp every change of vectors bumps (`vectorGeneration`).
/// - `meta` also records the folder or corpus the index was built from (`source`, `IndexOrigin`).
/// - `list_values`, `custom_values`: membership and grouping of list elements and custom keys.
///   Both are WITHOUT ROWID tables keyed for their main access path — list values by
///   (attribute, value, item), custom values by (item, key, position) — so neither needs a
///   second b-tree to find an item's rows; `position` keeps a multi-valued key's order. List
///   rows name their attribute by a small number (`listCode`), not its name: a million notes
///   write three million of them, so a shorter key makes every insert cheaper.
///
/// The settings below were chosen by measuring the index benchmark at a million notes; the
/// figures, and the machine they were measured on, are in Benchmarks/RESULTS.md.
enum IndexSchema {
    /// 13: sentences by ICU's sentence break iterator after wrapped lines are joined
    /// (`SentenceSplitter`), in long paragraphs' passage cuts and in the vectors' sentence
    /// pieces. 12: vectors record the hash of the text they were made from (identical text is
    /// embedded once). 11: HTML items hold their page's main content as libxml2 reads it.
    static let version = 13

    /// Bytes per database page for new index files. With 16 KiB pages instead of SQLite's 4 KiB,
    /// every b-tree has a quarter of the pages, so inserts split and rebalance less, index builds
    /// and FTS5 merges write fewer, larger pages, and the WAL carries fewer frame headers: the
    /// index benchmark builds faster, with queries unchanged.
    static let pageSize = 16_384

    /// Standard attributes stored as `items` columns (textContent lives in `item_text`).
    static let columns: [(attribute: SearchableItemAttribute, kind: AttributeKind)] =
        SearchableItemAttribute.standard.filter { $0.attribute != .textContent }

    /// Strings with few distinct values, worth an index for equality and grouping.
    static let facetStrings: [SearchableItemAttribute] = [
        .contentType, .namedLocation, .stateOrProvince, .city, .country, .creator,
    ]

    /// BM25 weights of the full-text columns (title, extra, body): a title word counts 8 times
    /// as much as a body word. Whole numbers, as the shortlists' counts require.
    static let fullTextWeights: [UInt32] = [8, 2, 1]

    /// Bytes of words FTS5 gathers in memory before writing a segment (its default is 1 MiB).
    /// ItemStore hands the words of a batch to FTS5 in runs of `ItemStore.wordRunLength` items,
    /// which fit in this, and a batch leaves one segment per run: fewer, larger segments mean
    /// fewer to read per word until later writes merge them, so multi-word searches (and the
    /// search tool's calls) get faster while indexing keeps its ratio to raw SQLite.
    static let ftsHashSize = 96 << 20

    /// Bytes of an FTS5 leaf. FTS5's default (4,050) fits SQLite's default 4 KiB page; this
    /// fits `pageSize`, so a common word's list of items spans a quarter as many leaves:
    /// multi-word searches read fewer pages, and indexing keeps its ratio to raw SQLite.
    static let ftsLeafSize = 16_000

    /// FTS5 merges for a bulk load: instead of merging its segments level by level while the
    /// batch writes them (`automerge` 4, so most words are rewritten twice over a million notes),
    /// FTS5 keeps them as written, one per run of `ItemStore.wordRunLength` items (`crisismerge`
    /// caps a level at 256 of them).
    static let ftsBulkLoadSettings = """
        INSERT INTO fts(fts, rank) VALUES('automerge', 0); INSERT INTO fts(fts, rank) VALUES('crisismerge', 256);
        INSERT INTO passage_fts(passage_fts, rank) VALUES('automerge', 0); INSERT INTO passage_fts(passage_fts, rank) VALUES('crisismerge', 256);
        """
    /// After a bulk load, FTS5 merges level by level again, a little with each later write
    /// (`crisismerge` stays at 256, so that no later write has to merge the batch's segments
    /// at once). The batch itself does not merge them: merging a million notes into one segment
    /// ('optimize') costs a large share of the whole build to make two-word searches faster;
    /// one-word searches rank from shortlists and do not need it.
    static let ftsBulkLoadFinish = """
        INSERT INTO fts(fts, rank) VALUES('automerge', 4); INSERT INTO passage_fts(passage_fts, rank) VALUES('automerge', 4);
        """

    /// Passages per item the rowid scheme leaves room for (`passageRowid`); a longer text's
    /// last passage holds the rest.
    static let passageIndexBits = 20
    static var passagesPerItem: Int { 1 << passageIndexBits }

    /// The rowid of an item's passage in `passages` and `passage_fts`.
    static func passageRowid(item: Int64, index: Int) -> Int64 { item << Int64(passageIndexBits) | Int64(index) }

    /// The rowids an item's passages can have, as bounds for `BETWEEN`.
    static func passageRowids(item: Int64) -> (first: Int64, last: Int64) {
        (passageRowid(item: item, index: 0), passageRowid(item: item, index: passagesPerItem - 1))
    }

    /// BM25 weights of the passage columns (heading path, body).
    static let passageWeights: [Double] = [2, 1]

    static func dayColumn(_ attribute: SearchableItemAttribute) -> String { "\(attribute.rawValue)_day" }

    /// A column of `items i` by name (an attribute's or a day column's), quoted.
    static func itemColumn(_ name: String) -> SQL { SQL(sql: "i.\"\(name)\"") }

    /// The standard list attributes, whose elements `list_values` and `list_counts` hold.
    static let listAttributes = columns.filter { $0.kind == .strings }.map(\.attribute)

    /// The number that stands for a list attribute in `list_values` and `list_counts`.
    static func listCode(_ attribute: SearchableItemAttribute) -> SQLiteValue {
        .integer(Int64(listAttributes.firstIndex(of: attribute) ?? -1))
    }

    /// The non-unique secondary indexes, by name: partial indexes on numbers, facet strings,
    /// domain and expiration, one (day, instant) index per date, and the custom-value indexes.
    /// A large batch drops the ones that hold entries at its first large write and builds them
    /// again before it commits (see `SearchableIndex.bulkLoadThreshold`): one sorted build costs
    /// far less than a million scattered b-tree inserts. `probe` finds one entry of the index
    /// through the index itself (each is partial, so an empty one answers at once).
    static let secondaryIndexes: [SecondaryIndex] = {
        var indexes: [SecondaryIndex] = []
        func add(_ name: String, table: String, columns: [String], presence: String) {
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            indexes.append(SecondaryIndex(
                name: name,
                sql: "CREATE INDEX IF NOT EXISTS \"\(name)\" ON \(table)(\(list)) WHERE \"\(presence)\" IS NOT NULL;",
                probe: SQL(sql: "SELECT 1 FROM \(table) INDEXED BY \"\(name)\" WHERE \"\(presence)\" IS NOT NULL LIMIT 1")))
        }
        func partialIndex(_ column: String) { add("items_\(column)", table: "items", columns: [column], presence: column) }
        for (attribute, kind) in columns {
            let name = attribute.rawValue
            switch kind {
            case .string, .strings: break
            case .number: partialIndex(name)
            case .date:
                // One index per date, (day, instant): grouping walks its day prefix, and date
                // filters add a day range (see `QueryCompiler`) so they walk it too.
                let day = dayColumn(attribute)
                add("items_\(name)", table: "items", columns: [day, name], presence: day)
            }
        }
        facetStrings.forEach { partialIndex($0.rawValue) }
        partialIndex("domain")
        partialIndex("expiration")
        for column in ["text", "number", "day"] {
            add("custom_\(column)", table: "custom_values", columns: ["key", column], presence: column)
        }
        return indexes
    }()

    /// One non-unique secondary index: its name, its CREATE statement and a query that returns a
    /// row only when the index holds an entry.
    struct SecondaryIndex {
        var name: String, sql: String, probe: SQL
    }

    static var createStatements: String {
        // Physical order: day numbers, then numbers and instants, then text. SQLite reads a
        // column by walking the record header up to it, so the columns that aggregations read
        // for every row (a scan grouping by day with a statistic) come first: over a million
        // rows, reading a column far down the record costs markedly more than one near its start.
        var days: [String] = [], numbers: [String] = [], texts: [String] = []
        for (attribute, kind) in columns {
            let name = attribute.rawValue
            switch kind {
            case .string, .strings: texts.append("\"\(name)\" TEXT")
            case .number: numbers.append("\"\(name)\" REAL")
            case .date:
                numbers.append("\"\(name)\" REAL")
                days.append("\"\(dayColumn(attribute))\" INTEGER")
            }
        }
        return """
        CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS items(
            rowid INTEGER PRIMARY KEY,
            \((days + numbers).joined(separator: ",\n    ")),
            expiration REAL,
            textLength INTEGER,
            identifier TEXT NOT NULL UNIQUE,
            domain TEXT,
            \(texts.joined(separator: ",\n    "))
        );
        CREATE TABLE IF NOT EXISTS item_text(rowid INTEGER PRIMARY KEY, data BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS list_values(
            attribute INTEGER NOT NULL, value TEXT NOT NULL, item INTEGER NOT NULL,
            PRIMARY KEY(attribute, value, item)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS list_counts(
            attribute INTEGER NOT NULL, value TEXT NOT NULL, count INTEGER NOT NULL,
            PRIMARY KEY(attribute, value)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS custom_keys(
            key TEXT PRIMARY KEY, kind TEXT NOT NULL, searchable INTEGER NOT NULL,
            searchableByDefault INTEGER NOT NULL, isUnique INTEGER NOT NULL, multiValued INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS custom_values(
            item INTEGER NOT NULL, key TEXT NOT NULL, position INTEGER NOT NULL, text TEXT, number REAL, day INTEGER,
            PRIMARY KEY(item, key, position)) WITHOUT ROWID;
        \(secondaryIndexes.map(\.sql).joined(separator: "\n"))
        CREATE TABLE IF NOT EXISTS term_shortlists(term TEXT PRIMARY KEY, count INTEGER NOT NULL, data BLOB NOT NULL) WITHOUT ROWID;
        CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, extra, body, content='', tokenize='lantern');
        INSERT INTO fts(fts, rank) VALUES('rank', 'bm25(\(fullTextWeights.map { "\($0).0" }.joined(separator: ", ")))');
        INSERT INTO fts(fts, rank) VALUES('hashsize', \(ftsHashSize));
        INSERT INTO fts(fts, rank) VALUES('pgsz', \(ftsLeafSize));
        CREATE TABLE IF NOT EXISTS passages(
            rowid INTEGER PRIMARY KEY, start INTEGER NOT NULL, length INTEGER NOT NULL, page INTEGER,
            firstLine INTEGER NOT NULL, lastLine INTEGER NOT NULL, heading TEXT);
        CREATE VIRTUAL TABLE IF NOT EXISTS passage_fts USING fts5(heading, body, content='', tokenize='lantern', detail='column');
        INSERT INTO passage_fts(passage_fts, rank) VALUES('rank', 'bm25(\(passageWeights.map { "\($0)" }.joined(separator: ", ")))');
        INSERT INTO passage_fts(passage_fts, rank) VALUES('hashsize', \(ftsHashSize));
        INSERT INTO passage_fts(passage_fts, rank) VALUES('pgsz', \(ftsLeafSize));
        CREATE TABLE IF NOT EXISTS vectors(rowid INTEGER PRIMARY KEY, passage INTEGER NOT NULL, sentence INTEGER, hash INTEGER NOT NULL, data BLOB NOT NULL);
        CREATE INDEX IF NOT EXISTS vectors_hash ON vectors(hash);
        """
    }

    static let dropStatements = """
        DROP TABLE IF EXISTS items; DROP TABLE IF EXISTS item_text; DROP TABLE IF EXISTS list_values; DROP TABLE IF EXISTS list_counts;
        DROP TABLE IF EXISTS custom_keys; DROP TABLE IF EXISTS custom_values; DROP TABLE IF EXISTS fts;
        DROP TABLE IF EXISTS term_shortlists; DROP TABLE IF EXISTS passages; DROP TABLE IF EXISTS passage_fts; DROP TABLE IF EXISTS vectors;
        DROP TABLE IF EXISTS meta;
        """

    /// Joins list elements for the `items` column (U+001F cannot occur in stored elements).
    static let listSeparator: Character = "\u{1F}"
}
