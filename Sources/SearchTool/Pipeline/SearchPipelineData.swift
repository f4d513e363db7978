import Foundation
import SearchIndex

/// The shapes data takes between pipeline stages and in replies (Apple's `SearchPipelineDataType`).
public enum SearchPipelineDataType: String, Sendable, Hashable, CaseIterable, Codable {
    case items, scoredItems, groupedItems, count, table, statistic, text
}

/// What a stage produced (Apple's `SearchPipelineData`); also the content of a `SearchReply`.
public enum SearchPipelineData: Sendable, Hashable {
    case items([SearchableItem])
    case scoredItems([ScoredSearchableItem])
    case groupedItems([SearchResultGroup])
    case count(SearchCount)
    case table(SearchResultsTable)
    case statistic(SearchStatistic)
    case text(SearchTextResult)

    public var type: SearchPipelineDataType {
        switch self {
        case .items: .items
        case .scoredItems: .scoredItems
        case .groupedItems: .groupedItems
        case .count: .count
        case .table: .table
        case .statistic: .statistic
        case .text: .text
        }
    }

    /// The items this data carries (scored and grouped ones included), for hydration and dedup.
    public var items: [SearchableItem] {
        switch self {
        case .items(let items): items
        case .scoredItems(let scored): scored.map(\.item)
        case .groupedItems(let groups): groups.flatMap(\.items)
        case .count, .table, .statistic, .text: []
        }
    }

    /// How many results this data stands for: items, groups' items, a count, table rows (what
    /// `ask`'s trace and an MCP result report as the number of results).
    public var resultCount: Int {
        switch self {
        case .items(let items): items.count
        case .scoredItems(let items): items.count
        case .groupedItems(let groups): groups.reduce(0) { $0 + $1.count }
        case .count(let count): count.value
        case .table(let table): table.rows.count
        case .statistic(let statistic): statistic.sampleCount
        case .text: 1
        }
    }
}

/// An item with the score a stage gave it (Apple's `ScoredSearchableItem(item:score:)`).
public struct ScoredSearchableItem: Sendable, Hashable {
    public var item: SearchableItem
    public var score: Double
    public init(item: SearchableItem, score: Double) {
        self.item = item
        self.score = score
    }
}

/// One group of a groupBy stage: its value, how many items it holds (counted in SQL), the
/// statistic asked for, and its first few items.
///
/// Apple keys grouped items by attribute in a dictionary; Lantern keeps groups ordered (most
/// frequent first, or in date order) and carries the full count, which a dictionary of items
/// cannot say once the items are capped.
public struct SearchResultGroup: Sendable, Hashable {
    public var label: String
    public var count: Int
    public var value: Double?
    public var items: [SearchableItem]
    public init(label: String, count: Int, value: Double? = nil, items: [SearchableItem] = []) {
        self.label = label
        self.count = count
        self.value = value
        self.items = items
    }
}

/// A count (Apple's `SearchCount`).
public struct SearchCount: Sendable, Hashable {
    public var value: Int
    public var header: String?
    public init(value: Int, header: String? = nil) {
        self.value = value
        self.header = header
    }
}

/// A named number (Apple's `SearchStatistic`); nil when no item had a value.
public struct SearchStatistic: Sendable, Hashable {
    public var name: String
    public var value: Double?
    /// How many values it was computed from.
    public var sampleCount: Int
    public var header: String?
    /// The titles of the items the value was computed from, when the tool names them (a
    /// statistic the question asks, of a few items); empty otherwise.
    public var itemTitles: [String]
    public init(name: String, value: Double?, sampleCount: Int, header: String? = nil, itemTitles: [String] = []) {
        self.name = name
        self.value = value
        self.sampleCount = sampleCount
        self.header = header
        self.itemTitles = itemTitles
    }
}

/// Free text a stage produced (Apple's `SearchTextResult`).
public struct SearchTextResult: Sendable, Hashable {
    public var body: String
    public var header: String?
    public init(body: String, header: String? = nil) {
        self.body = body
        self.header = header
    }
}

/// Rows and named columns (Apple's `SearchResultsTable`). Cells are strings as the model reads
/// them; `numbers` keeps numeric cells exactly for code that needs them.
public struct SearchResultsTable: Sendable, Hashable {
    public var columns: [String]
    public var rows: [[String]]
    /// Per row, per column: the number when the cell is numeric.
    public var numbers: [[Double?]]
    public var header: String?
    public init(columns: [String], rows: [[String]], numbers: [[Double?]]? = nil, header: String? = nil) {
        self.columns = columns
        self.rows = rows
        self.numbers = numbers ?? rows.map { $0.map { Double($0) } }
        self.header = header
    }
}
