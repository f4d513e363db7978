import Foundation

/// The columns a query selects to rebuild items from `items i` rows, and where each one is:
/// the item's own columns, one per stored attribute (`IndexSchema.columns`), then what the
/// query adds, found by name. The SELECT list and the decoding both read this one declaration.
struct ItemSelection {
    /// A column a query selects after the item's.
    enum Addition: String {
        /// The BM25 rank of a full-text match (lower is better).
        case score = "fts.rank"
        /// The length of the stored textContent (NULL when the item has none).
        case textLength = "i.textLength"
        /// The stored full-text input (`item_text t`).
        case storedText = "t.data"
    }

    /// The item's columns, in their order, before the attribute columns.
    private enum Own: Int, CaseIterable {
        case rowid, identifier, domain, expiration
    }

    /// Where the attribute columns start.
    private static let firstAttributeColumn = Own.allCases.count

    /// The items' columns alone.
    static let items = ItemSelection([])
    /// The items' columns and their full-text score.
    static let scored = ItemSelection([.score])
    /// The items' columns and their stored text, for complete items.
    static let complete = ItemSelection([.textLength, .storedText])

    /// The SELECT list.
    let columns: SQL
    private let additions: [Addition]

    private init(_ additions: [Addition]) {
        self.additions = additions
        let names = Own.allCases.map { "i.\($0)" } + IndexSchema.columns.map { IndexSchema.itemColumn($0.attribute.rawValue).text } + additions.map(\.rawValue)
        columns = SQL(sql: names.joined(separator: ", "))
    }

    /// Where `addition` is in each row; nil when this selection does not add it.
    func position(of addition: Addition) -> Int? {
        additions.firstIndex(of: addition).map { Self.firstAttributeColumn + IndexSchema.columns.count + $0 }
    }

    /// The rowid and the item of the current row, with only `fetch` attributes (nil: all).
    static func decode(_ row: SQLiteRow, fetch: Set<SearchableItemAttribute>?) -> (rowid: Int64, item: SearchableItem) {
        var set = SearchableItemAttributeSet()
        let first = firstAttributeColumn
        for (offset, column) in IndexSchema.columns.enumerated() {
            let index = first + offset
            guard fetch?.contains(column.attribute) ?? true, !row.isNull(index) else { continue }
            switch column.kind {
            case .string: set[column.attribute] = row.text(index).map(AttributeValue.string)
            case .strings:
                set[column.attribute] = row.text(index).map {
                    .strings($0.split(separator: IndexSchema.listSeparator).map(String.init))
                }
            case .number: set[column.attribute] = .number(row.double(index))
            case .date: set[column.attribute] = .date(Date(timeIntervalSince1970: row.double(index)))
            }
        }
        let expiration = Own.expiration.rawValue
        let item = SearchableItem(uniqueIdentifier: row.text(Own.identifier.rawValue) ?? "", domainIdentifier: row.text(Own.domain.rawValue),
                                  attributeSet: set, expirationDate: row.isNull(expiration) ? nil : Date(timeIntervalSince1970: row.double(expiration)))
        return (row.integer(Own.rowid.rawValue), item)
    }
}
