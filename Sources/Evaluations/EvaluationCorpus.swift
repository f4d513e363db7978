import Foundation
import SearchIndex

/// What an evaluation indexes: corpus items (a JSON Lines corpus, read by `CorpusReader`), or a
/// folder of documents read by the files source as `ask --folder` reads it, so long PDFs and
/// Markdown files are measured the way users index them.
public enum EvaluationCorpus: Sendable {
    case items([SearchableItem])
    case folder(URL)

    /// Indexes the corpus into `index`.
    func index(into index: SearchableIndex) async throws {
        switch self {
        case .items(let items):
            guard !items.isEmpty else { throw EvaluationError.emptyCorpus }
            try await index.indexSearchableItems(items)
        case .folder(let folder):
            let report = try await FileSource(scopes: [folder]).refresh(into: index)
            guard report.indexed > 0 else { throw EvaluationError.emptyCorpus }
        }
    }

    /// A sample whose expected items and passages name files relative to the folder, with
    /// those names made the identifiers the files source gives (real paths); unchanged for items.
    func resolving(_ sample: EvaluationSample) -> EvaluationSample {
        guard case .folder(let folder) = self else { return sample }
        func path(_ name: String) -> String {
            name.hasPrefix("/") ? name : folder.appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL.path
        }
        var resolved = sample
        resolved.expectedIdentifiers = sample.expectedIdentifiers.map(path)
        resolved.expectedPassages = sample.expectedPassages.map { passage in
            var passage = passage
            passage.file = path(passage.file)
            return passage
        }
        return resolved
    }
}
