import CommandLineArguments
import Foundation

/// The data a question runs over, from `--corpus`, `--folder` or `--index` (at most one), or the
/// built-in sample corpus when none is given.
enum DataSelection: Sendable {
    /// The hiking-trails notebook shipped with Lantern, indexed as "sample" on first run.
    case sample
    /// A JSON Lines corpus, (re)indexed when the file changed.
    case corpus(URL, indexName: String)
    /// A folder of documents, refreshed incrementally.
    case folder(URL, indexName: String)
    /// An index built earlier with `ask index`.
    case index(String)

    static let sampleIndexName = "sample"

    /// The data `--corpus`, `--folder` and `--index` name; `--index` with `--corpus`/`--folder`
    /// names the index to build.
    static func from(corpus: String?, folder: String?, index: String?, requireSource: Bool = false) throws(UsageError) -> DataSelection {
        if corpus != nil && folder != nil { throw UsageError("--corpus and --folder cannot be used together; pick one") }
        if let corpus {
            let url = URL(fileURLWithPath: (corpus as NSString).expandingTildeInPath)
            if let index { return .corpus(url, indexName: index) }
            return .corpus(url, indexName: try defaultName(for: url, dropExtension: true))
        }
        if let folder {
            let url = URL(fileURLWithPath: (folder as NSString).expandingTildeInPath)
            if let index { return .folder(url, indexName: index) }
            return .folder(url, indexName: try defaultName(for: url, dropExtension: false))
        }
        if requireSource { throw UsageError("give --folder DIR or --corpus FILE.jsonl to index") }
        return index.map(DataSelection.index) ?? .sample
    }

    var indexName: String {
        switch self {
        case .sample: Self.sampleIndexName
        case .corpus(_, let name), .folder(_, let name): name
        case .index(let name): name
        }
    }

    /// An index name from a file or folder name: letters, digits, '.', '-', '_' kept, the rest '-'.
    private static func defaultName(for url: URL, dropExtension: Bool) throws(UsageError) -> String {
        let base = dropExtension ? url.deletingPathExtension().lastPathComponent : url.standardizedFileURL.lastPathComponent
        let cleaned = String(base.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "-" })
            .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        guard !cleaned.isEmpty, cleaned != "-" else {
            throw UsageError("cannot name an index after '\(url.path)'; pass --index NAME")
        }
        return cleaned
    }
}
