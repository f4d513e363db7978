import CommandLineArguments
import Foundation
import Lantern

extension DataSelection {
    /// The data `--corpus`, `--folder` and `--index` name (at most one of the first two; the
    /// sample corpus when none is given); `--index` with `--corpus`/`--folder` names the index
    /// to build.
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
