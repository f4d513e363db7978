import Foundation

/// Progress of a `FileSource` refresh, reported once per file.
public struct FileSourceProgress: Sendable, Hashable {
    public var filesSeen: Int
    public var filesIndexed: Int
    public var bytesRead: Int
    public var path: String
}

/// What a refresh did.
public struct FileSourceReport: Sendable, Hashable {
    public var indexed = 0
    public var unchanged = 0
    public var removed = 0
    /// Files and folders left out, with the reason (hidden ones are not listed; they are never
    /// considered).
    public var skipped: [String: String] = [:]
    /// The caps that stopped part of the walk. What they kept it from seeing (folders not
    /// entered, files past a cap) stays in the index as it was; files the walk knows are gone
    /// are removed all the same.
    public var limitsReached: Set<FileSourceLimit> = []
    /// Whether a cap (files, bytes, depth) stopped part of the walk.
    public var reachedLimit: Bool { !limitsReached.isEmpty }
}

/// A cap of `FileSource`, with its value.
public enum FileSourceLimit: Sendable, Hashable, CustomStringConvertible {
    /// `maximumDepth`: folders nested deeper were not entered.
    case depth(Int)
    /// `maximumFileCount`: files past it were not read.
    case fileCount(Int)
    /// `maximumTotalBytes`: files past it were not read.
    case totalBytes(Int)

    public var description: String {
        switch self {
        case .depth(let levels): "the depth cap (folders nested more than \(levels) folders deep were not entered)"
        case .fileCount(let count): "the file cap (\(count) files; the others were not read)"
        case .totalBytes(let bytes): "the byte cap (\(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)) read per refresh; the other files were not read)"
        }
    }
}

/// Indexes folders in place, mirroring `SpotlightSearchTool`'s `FileSource(scopes:)`.
///
/// A recursive walk with caps; hidden and binary files are skipped; symbolic links are followed
/// only when they resolve inside a scope, and each directory is entered once (no loops). Text comes
/// from plain text, Markdown, source code, HTML (tags stripped) and PDF (`pdftotext`, with a
/// timeout). Each file becomes an item in `domainIdentifier` whose identifier is its real path,
/// with path, name, size, dates and a content type. A refresh re-reads only files whose
/// modification time or size changed, and deletes items of files that are gone, also when a cap
/// stopped part of the walk (what the cap hid is kept; `FileSourceReport.limitsReached` says
/// which caps). Files are opened without blocking and read only when they are regular files, so
/// one that became a FIFO or a device since the walk is skipped, never waited on.
public struct FileSource: Sendable {
    public var scopes: [URL]
    public var maximumFileCount = 100_000
    public var maximumDepth = 32
    /// Bytes of text read per file (the rest of a longer file is not indexed).
    public var maximumFileBytes = 4 << 20
    /// Bytes read in total per refresh.
    public var maximumTotalBytes = 2 << 30
    public var pdfTimeout: Duration = .seconds(20)
    public var pdftotextPath = "/usr/bin/pdftotext"
    public var domainIdentifier = "files"

    /// Text written per transaction into an index with an embedder (see `refresh`).
    static let embeddingWriteBytes = 64 << 10

    public init(scopes: [URL]) {
        self.scopes = scopes
    }

    private struct Candidate {
        var path: String
        var size: Int
        var modified: Date
        var created: Date?
        var kind: FileTextExtractor.Kind
        var ext: String
    }

    /// Walks the scopes and brings the index up to date.
    public func refresh(into index: SearchableIndex,
                        progress: (@Sendable (FileSourceProgress) -> Void)? = nil) async throws -> FileSourceReport {
        var report = FileSourceReport()
        let walked = walk(&report)
        let candidates = walked.candidates
        let existing = try await index.search(SearchQuery(.domain(domainIdentifier), sort: [], limit: nil,
                                                          fetchAttributes: [.fileSize, .contentModificationDate]))
        var known: [String: (size: Double?, modified: Date?)] = [:]
        for hit in existing {
            known[hit.item.uniqueIdentifier] = (hit.item.attributeSet.fileSize, hit.item.attributeSet.contentModificationDate)
        }
        let extractor = FileTextExtractor(pdfTimeout: pdfTimeout, pdftotextPath: pdftotextPath, maximumBytes: maximumFileBytes)
        var pending: [SearchableItem] = []
        var pendingBytes = 0
        var seen = Set<String>()
        var bytesRead = 0
        for (number, candidate) in candidates.enumerated() {
            try Task.checkCancellation()
            seen.insert(candidate.path)
            defer {
                progress?(FileSourceProgress(filesSeen: number + 1, filesIndexed: report.indexed, bytesRead: bytesRead, path: candidate.path))
            }
            if let old = known[candidate.path], old.size == Double(candidate.size), let modified = old.modified,
               abs(modified.timeIntervalSince1970 - candidate.modified.timeIntervalSince1970) < 0.001 {
                report.unchanged += 1
                continue
            }
            guard bytesRead < maximumTotalBytes else {
                report.limitsReached.insert(.totalBytes(maximumTotalBytes))
                report.skipped[candidate.path] = "byte limit reached"
                continue
            }
            let extracted: (text: String, title: String?)?
            do {
                extracted = try await extractor.extract(path: candidate.path, kind: candidate.kind)
            } catch {
                report.skipped[candidate.path] = error.description
                seen.remove(candidate.path)
                continue
            }
            guard let extracted else {
                report.skipped[candidate.path] = "binary content"
                seen.remove(candidate.path)
                continue
            }
            bytesRead += min(candidate.size, maximumFileBytes)
            let name = (candidate.path as NSString).lastPathComponent
            var set = SearchableItemAttributeSet(contentType: FileTextExtractor.contentType(kind: candidate.kind, ext: candidate.ext))
            set.title = extracted.title ?? name
            set.displayName = name
            set.path = candidate.path
            set.fileSize = Double(candidate.size)
            set.contentModificationDate = candidate.modified
            set.contentCreationDate = candidate.created
            set.textContent = extracted.text
            pending.append(SearchableItem(uniqueIdentifier: candidate.path, domainIdentifier: domainIdentifier, attributeSet: set))
            pendingBytes += extracted.text.utf8.count
            report.indexed += 1
            // An index with an embedder writes after about 50 passages' worth of text, so its
            // progress keeps moving while the passages are embedded (and an interruption loses
            // little); without one, after 500 files, which is cheaper per item.
            if pending.count >= 500 || (index.embedder != nil && pendingBytes >= Self.embeddingWriteBytes) {
                try await index.indexSearchableItems(pending)
                pending.removeAll()
                pendingBytes = 0
            }
        }
        if !pending.isEmpty { try await index.indexSearchableItems(pending) }
        // A cap hides only what it covers: files under a folder not entered, and files the walk
        // listed past the file cap, may still exist, so their items stay; every other file the
        // index knows and the walk did not find is gone.
        let gone = known.keys.filter { path in
            !seen.contains(path) && !walked.unread.contains(path)
                && !walked.notEntered.contains { path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
        if !gone.isEmpty { try await index.deleteSearchableItems(withIdentifiers: gone) }
        report.removed = gone.count
        return report
    }

    /// What a walk found: the files to read, the folders it did not enter (too deep, or not
    /// listable), and files it listed but left unread (past the file cap).
    private struct Walk {
        var candidates: [Candidate] = []
        var notEntered: [String] = []
        var unread: Set<String> = []
    }

    /// Lists candidate files: depth-first, real paths, each directory once, symlinks only within scopes.
    private func walk(_ report: inout FileSourceReport) -> Walk {
        let manager = FileManager.default
        let roots = scopes.map { $0.resolvingSymlinksInPath().standardizedFileURL.path }
        func insideScopes(_ path: String) -> Bool {
            roots.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
        var visitedDirectories = Set<String>()
        var seenFiles = Set<String>()
        var walked = Walk()
        var stack: [(path: String, depth: Int)] = roots.reversed().map { ($0, 0) }
        while let (directory, depth) = stack.popLast() {
            guard visitedDirectories.insert(directory).inserted else { continue }
            let names: [String]
            do { names = try manager.contentsOfDirectory(atPath: directory).sorted() } catch {
                report.skipped[directory] = "cannot list folder: \(error.localizedDescription)"
                walked.notEntered.append(directory)
                continue
            }
            var subdirectories: [String] = []
            for name in names where !name.hasPrefix(".") {
                var path = (directory as NSString).appendingPathComponent(name)
                guard var attributes = try? manager.attributesOfItem(atPath: path) else {
                    report.skipped[path] = "vanished or unreadable while listing"
                    continue
                }
                if attributes[.type] as? FileAttributeType == .typeSymbolicLink {
                    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
                    guard insideScopes(target), let targetAttributes = try? manager.attributesOfItem(atPath: target) else {
                        report.skipped[path] = "symbolic link leading outside the scopes (or dangling)"
                        continue
                    }
                    path = target
                    attributes = targetAttributes
                }
                switch attributes[.type] as? FileAttributeType {
                case .typeDirectory?:
                    if depth + 1 > maximumDepth {
                        report.limitsReached.insert(.depth(maximumDepth))
                        report.skipped[path] = "folder not entered: deeper than \(maximumDepth) folders (FileSource.maximumDepth)"
                        walked.notEntered.append(path)
                    } else {
                        subdirectories.append(path)
                    }
                case .typeRegular?:
                    guard seenFiles.insert(path).inserted else { continue }
                    let ext = (name as NSString).pathExtension
                    let kind = FileTextExtractor.kind(ofExtension: ext)
                    if kind == .binary {
                        report.skipped[path] = "binary file type"
                        continue
                    }
                    guard walked.candidates.count < maximumFileCount else {
                        report.limitsReached.insert(.fileCount(maximumFileCount))
                        walked.unread.insert(path)
                        continue
                    }
                    walked.candidates.append(Candidate(path: path, size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                                                modified: attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0),
                                                created: attributes[.creationDate] as? Date, kind: kind, ext: ext))
                default:
                    report.skipped[path] = "not a regular file (FIFO, socket or device)"
                }
            }
            stack += subdirectories.reversed().map { ($0, depth + 1) }
        }
        return walked
    }
}
