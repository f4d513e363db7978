/// How an index and its source disagree, item by item: what `ask index --check` reports, and
/// what a refresh would change. Made by `FileSource.compare(with:)` and
/// `CorpusSource.compare(with:)` without writing anything.
public struct SourceComparison: Sendable, Hashable {
    /// The source compared with.
    public var source: IndexOrigin
    /// Identifiers the source has and the index lacks (files that would be indexed; a folder's
    /// files that cannot be read as text are not counted, since a refresh skips them too).
    public var missing: [String] = []
    /// Identifiers the index has and the source does not (deleted files, items of another source).
    public var extra: [String] = []
    /// Identifiers in both whose source changed since they were indexed (a file's size or
    /// modification time); for a corpus, which is indexed whole, its path when its bytes changed.
    public var changed: [String] = []

    public init(source: IndexOrigin) {
        self.source = source
    }

    /// Whether the index holds exactly what its source holds.
    public var agrees: Bool { missing.isEmpty && extra.isEmpty && changed.isEmpty }
}
