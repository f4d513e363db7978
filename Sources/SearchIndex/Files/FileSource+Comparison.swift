import Foundation

extension FileSource {
    /// How `index` differs from the files under the scopes, without writing anything: files a
    /// refresh would index that the index lacks, items whose file is gone (or that no file
    /// source wrote), and items whose file changed (size or modification time) since it was
    /// indexed. Only files missing from the index are read, to leave out those a refresh skips
    /// too (binary, unreadable); what a cap keeps the walk from seeing counts as neither missing
    /// nor gone, as in a refresh.
    public func compare(with index: SearchableIndex) async throws -> SourceComparison {
        var report = FileSourceReport()
        let walked = walk(&report)
        let indexed = try await indexedFiles(in: index, where: .all)
        var comparison = SourceComparison(source: .folders(scopes))
        let extractor = textExtractor
        var listed = Set<FileItemPath>()
        for candidate in walked.candidates {
            try Task.checkCancellation()
            listed.insert(candidate.file)
            if let old = indexed.known[candidate.file] {
                if !candidate.matches(size: old.size, modified: old.modified) { comparison.changed.append(old.identifier) }
            } else if (try? await extractor.extract(candidate.file, kind: candidate.kind)) != nil {
                comparison.missing.append(candidate.path)
            }
        }
        comparison.extra = indexed.identifiers(notIn: listed, hiddenBy: walked).sorted()
        return comparison
    }

    /// The extractor a refresh and a comparison read files with, under this source's limits.
    var textExtractor: FileTextExtractor {
        FileTextExtractor(pdfTimeout: pdfTimeout, pdftotextPath: pdftotextPath, maximumBytes: maximumFileBytes)
    }

    /// What the index holds of files, for a refresh or a comparison to set against a walk.
    struct IndexedFiles {
        /// Keyed by the path's bytes: Swift compares strings by canonical equivalence, so two
        /// files whose names differ only in Unicode normalization (é and e + U+0301) would be one
        /// key, and a deleted one kept alive by the other.
        var known: [FileItemPath: (identifier: String, size: Double?, modified: Date?)] = [:]
        /// Identifiers no file source wrote (their bytes do not spell them back): no file's.
        var foreign: [String] = []

        /// The identifiers of items whose file the walk did not find (`found`), nor a cap hid.
        func identifiers(notIn found: Set<FileItemPath>, hiddenBy walked: Walk) -> [String] {
            (known.filter { !found.contains($0.key) }.map(\.value.identifier) + foreign).filter { !walked.hides($0) }
        }
    }

    /// The items `predicate` selects in `index`, read as files.
    func indexedFiles(in index: SearchableIndex, where predicate: QueryPredicate) async throws -> IndexedFiles {
        let hits = try await index.search(SearchQuery(predicate, sort: [], limit: nil, fetchAttributes: [.fileSize, .contentModificationDate]))
        var indexed = IndexedFiles()
        for hit in hits {
            let identifier = hit.item.uniqueIdentifier
            guard let file = FileItemPath(identifier: identifier), file.identifier.utf8.elementsEqual(identifier.utf8) else {
                indexed.foreign.append(identifier)
                continue
            }
            indexed.known[file] = (identifier, hit.item.attributeSet.fileSize, hit.item.attributeSet.contentModificationDate)
        }
        return indexed
    }
}

extension FileSource.Candidate {
    /// Whether the index's record of the file (its size and modification time) still describes it.
    func matches(size: Double?, modified: Date?) -> Bool {
        guard size == Double(self.size), let modified else { return false }
        return abs(modified.timeIntervalSince1970 - self.modified.timeIntervalSince1970) < 0.001
    }
}

extension FileSource.Walk {
    /// Whether a cap kept the walk from seeing `path` (a file listed past the file cap, or one
    /// under a folder not entered), so its absence from the walk does not mean it is gone.
    func hides(_ path: String) -> Bool {
        unread.contains(path) || notEntered.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }
}
