import Foundation

/// The data questions run over: a JSON Lines corpus, a folder of documents, an index built
/// earlier, or the built-in sample corpus. Every front end (`ask`, `ask index`, `ask mcp`) names
/// its data with one of these and opens it with `IndexOpener`, so they all open it alike.
public enum DataSelection: Sendable, Equatable {
    /// The hiking-trails notebook shipped with Lantern, indexed as "sample" on first run.
    case sample
    /// A JSON Lines corpus, (re)indexed when the file changed.
    case corpus(URL, indexName: String)
    /// A folder of documents, refreshed incrementally.
    case folder(URL, indexName: String)
    /// An index built earlier with `ask index`.
    case index(String)

    public static let sampleIndexName = "sample"

    /// The name of the index this data lives in (under `SearchableIndex.defaultURL(name:)`).
    public var indexName: String {
        switch self {
        case .sample: Self.sampleIndexName
        case .corpus(_, let name), .folder(_, let name): name
        case .index(let name): name
        }
    }
}
