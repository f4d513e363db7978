import Foundation

/// Where an index's items come from: a folder (`FileSource`'s scopes) or a JSON Lines corpus
/// (`CorpusSource`). The index records it (`SearchableIndex.origin()`), and a source refuses to
/// refresh an index that another one built (`SearchIndexError.sourceMismatch`): a refresh keeps
/// only its own source's items, so writing a second source under the same name would silently
/// delete the first one's.
///
/// Core Spotlight has no such record: an app owns its named index alone. Here any process may
/// point a folder or a corpus at any index name, so the index says whose it is.
public struct IndexOrigin: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case folder
        case corpus
    }

    public let kind: Kind
    /// The folders' real paths (one per line, sorted) or the corpus file's real path; or a name
    /// that stays the same where the path does not (the built-in sample).
    public let location: String

    public init(kind: Kind, location: String) {
        self.kind = kind
        self.location = location
    }

    /// The folders `scopes`, by their real paths (symbolic links resolved), in a stable order.
    public static func folders(_ scopes: [URL]) -> IndexOrigin {
        IndexOrigin(kind: .folder, location: scopes.map(realPath).sorted().joined(separator: "\n"))
    }

    /// The corpus file at `url`, by its real path.
    public static func corpus(_ url: URL) -> IndexOrigin {
        IndexOrigin(kind: .corpus, location: realPath(url))
    }

    static func realPath(_ url: URL) -> String {
        url.resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// "the folder /home/me/notes", "the corpus /data/mail.jsonl"; a location that is a name,
    /// not a path, as it is ("the built-in sample").
    public var description: String {
        let places = location.split(separator: "\n").joined(separator: ", ")
        guard location.hasPrefix("/") else { return location }
        switch kind {
        case .folder: return location.contains("\n") ? "the folders \(places)" : "the folder \(places)"
        case .corpus: return "the corpus \(places)"
        }
    }

    /// How the index stores it (`meta.source`): the kind, a tab, the location.
    var stored: String { "\(kind.rawValue)\t\(location)" }

    init?(stored: String) {
        guard let tab = stored.firstIndex(of: "\t"), let kind = Kind(rawValue: String(stored[..<tab])) else { return nil }
        self.init(kind: kind, location: String(stored[stored.index(after: tab)...]))
    }
}
