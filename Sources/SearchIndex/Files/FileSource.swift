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
    /// `maximumFileBytes`: longer files were indexed up to it, the rest of their text left out.
    case fileBytes(Int)

    public var description: String {
        switch self {
        case .depth(let levels): "the depth cap (folders nested more than \(levels) folders deep were not entered)"
        case .fileCount(let count): "the file cap (\(count) files; the others were not read)"
        case .totalBytes(let bytes): "the byte cap (\(ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file)) read per refresh; the other files were not read)"
        case .fileBytes(let bytes): "the text cap (\(bytes) bytes read per file; longer files were indexed up to it, the rest of their text left out)"
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
    /// How long one file's reading may take: `pdftotext`'s run for a PDF, the open and the read
    /// for any other file. A file that takes longer is skipped with the reason.
    public var pdfTimeout: Duration = .seconds(20)
    public var pdftotextPath = "/usr/bin/pdftotext"
    public var domainIdentifier = "files"
    /// Whether an index built from another source (another folder, a corpus) is emptied and
    /// refreshed from this one, rather than refused with `SearchIndexError.sourceMismatch`.
    public var replacesOtherSource = false
    /// Called once if another writer holds the index's lock, with its process id when known.
    public var waitingForWriter: (@Sendable (_ holder: Int32?) -> Void)?

    public init(scopes: [URL]) {
        self.scopes = scopes
    }

    struct Candidate {
        /// The item identifier (`FileItemPath.identifier`): the path when it is UTF-8.
        var path: String
        /// The path's bytes, to open the file, and its shown spelling.
        var file: FileItemPath
        var size: Int
        var modified: Date
        var created: Date?
        var kind: FileTextExtractor.Kind
        var ext: String
    }

    /// Walks the scopes and brings the index up to date. It holds the index's `IndexWriterLock`
    /// from before it reads what the index holds to its last write, so "unchanged" and "gone"
    /// are decided against the index it writes; and it records the folders as the index's
    /// source, refusing an index another source built (see `replacesOtherSource`).
    public func refresh(into index: SearchableIndex,
                        progress: (@Sendable (FileSourceProgress) -> Void)? = nil) async throws -> FileSourceReport {
        let lock = try await IndexWriterLock.acquire(for: index.fileURL, waiting: waitingForWriter)
        defer { withExtendedLifetime(lock) {} }
        try await index.claimOrigin(.folders(scopes), replacing: replacesOtherSource)
        var report = FileSourceReport()
        let walked = walk(&report)
        let candidates = walked.candidates
        let indexed = try await indexedFiles(in: index, where: .domain(domainIdentifier))
        let extractor = textExtractor
        var pending: [SearchableItem] = []
        var seen = Set<FileItemPath>()
        var bytesRead = 0
        for (number, candidate) in candidates.enumerated() {
            try Task.checkCancellation()
            seen.insert(candidate.file)
            defer {
                progress?(FileSourceProgress(filesSeen: number + 1, filesIndexed: report.indexed, bytesRead: bytesRead, path: candidate.file.shown))
            }
            if let old = indexed.known[candidate.file], candidate.matches(size: old.size, modified: old.modified) {
                report.unchanged += 1
                // Its item still holds the text up to the cap (a PDF's text is not its size).
                if candidate.kind != .pdf && candidate.size > maximumFileBytes {
                    report.limitsReached.insert(.fileBytes(maximumFileBytes))
                }
                continue
            }
            guard bytesRead < maximumTotalBytes else {
                report.limitsReached.insert(.totalBytes(maximumTotalBytes))
                report.skipped[candidate.path] = "byte limit reached"
                continue
            }
            let extracted: FileTextExtractor.Extracted?
            do {
                extracted = try await extractor.extract(candidate.file, kind: candidate.kind)
            } catch {
                report.skipped[candidate.path] = error.description
                seen.remove(candidate.file)
                continue
            }
            guard let extracted else {
                report.skipped[candidate.path] = "binary content"
                seen.remove(candidate.file)
                continue
            }
            bytesRead += min(candidate.size, maximumFileBytes)
            if extracted.reachedByteCap { report.limitsReached.insert(.fileBytes(maximumFileBytes)) }
            let name = String(decoding: candidate.file.name, as: UTF8.self)
            var set = SearchableItemAttributeSet(contentType: FileTextExtractor.contentType(kind: candidate.kind, ext: candidate.ext))
            set.title = extracted.title ?? name
            set.displayName = name
            set.path = candidate.file.shown
            set.fileSize = Double(candidate.size)
            set.contentModificationDate = candidate.modified
            set.contentCreationDate = candidate.created
            set.textContent = extracted.text
            pending.append(SearchableItem(uniqueIdentifier: candidate.path, domainIdentifier: domainIdentifier, attributeSet: set))
            report.indexed += 1
            // Words only (vectors follow in the embedding pass), so 500 files a write, embedder or not.
            if pending.count >= 500 {
                try await index.indexSearchableItems(pending)
                pending.removeAll()
            }
        }
        if !pending.isEmpty { try await index.indexSearchableItems(pending) }
        // A cap hides only what it covers: files under a folder not entered, and files the walk
        // listed past the file cap, may still exist, so their items stay; every other file the
        // index knows and the walk did not find is gone.
        let gone = indexed.identifiers(notIn: seen, hiddenBy: walked)
        if !gone.isEmpty { try await index.deleteSearchableItems(withIdentifiers: gone) }
        report.removed = gone.count
        return report
    }

    /// What a walk found: the files to read, the folders it did not enter (too deep, or not
    /// listable), and files it listed but left unread (past the file cap). Files and folders
    /// are named by item identifier; a folder not entered is listed in both of its spellings
    /// when it has two (its UTF-8 path and its `file://` form), since a name beneath it that is
    /// not UTF-8 gives that item the `file://` form.
    struct Walk {
        var candidates: [Candidate] = []
        var notEntered: [String] = []
        var unread: Set<String> = []
    }

    /// Lists candidate files: depth-first, real paths, each directory once, symlinks only within
    /// scopes. Names are the file system's bytes (`DirectoryListing`); a folder on a
    /// pseudo-filesystem is skipped by type before it is listed, a FIFO, socket or device by
    /// its status.
    func walk(_ report: inout FileSourceReport) -> Walk {
        let roots = scopes.map(Self.realPath)
        func insideScopes(_ path: FileItemPath) -> Bool { roots.contains { path.isInside($0) } }
        var visitedDirectories = Set<FileItemPath>()
        var seenFiles = Set<FileItemPath>()
        var walked = Walk()
        func notEntered(_ directory: FileItemPath) {
            // Both spellings, so the prefix test in `hides` finds every item beneath it,
            // whichever spelling its own name needs (see `FileItemPath`).
            walked.notEntered.append(directory.identifier)
            if directory.isUTF8 { walked.notEntered.append(directory.escapedIdentifier) }
        }
        var stack: [(path: FileItemPath, depth: Int)] = roots.reversed().map { ($0, 0) }
        while let (directory, depth) = stack.popLast() {
            guard visitedDirectories.insert(directory).inserted else { continue }
            let listing: DirectoryListing
            let names: [[UInt8]]
            do {
                listing = try DirectoryListing(directory)
                names = try listing.names().sorted { $0.lexicographicallyPrecedes($1) }
            } catch {
                report.skipped[directory.identifier] = error.description
                // What a pseudo-filesystem holds is never indexed; a folder that cannot be
                // listed keeps its items.
                if case .unreadable = error { notEntered(directory) }
                continue
            }
            var subdirectories: [FileItemPath] = []
            for name in names where name.first != UInt8(ascii: ".") {
                var path = directory.appending(name)
                guard var status = listing.status(of: name) else {
                    report.skipped[path.identifier] = "vanished or unreadable while listing"
                    continue
                }
                if status.kind == .symbolicLink {
                    guard let target = Self.realPath(of: path), insideScopes(target), let targetStatus = FileStatus.of(target) else {
                        report.skipped[path.identifier] = "symbolic link leading outside the scopes (or dangling)"
                        continue
                    }
                    path = target
                    status = targetStatus
                }
                switch status.kind {
                case .directory:
                    if depth + 1 > maximumDepth {
                        report.limitsReached.insert(.depth(maximumDepth))
                        report.skipped[path.identifier] = "folder not entered: deeper than \(maximumDepth) folders (FileSource.maximumDepth)"
                        notEntered(path)
                    } else {
                        subdirectories.append(path)
                    }
                case .regular:
                    guard seenFiles.insert(path).inserted else { continue }
                    let ext = Self.pathExtension(path.name)
                    let kind = FileTextExtractor.kind(ofExtension: ext)
                    if kind == .binary {
                        report.skipped[path.identifier] = "binary file type"
                        continue
                    }
                    guard walked.candidates.count < maximumFileCount else {
                        report.limitsReached.insert(.fileCount(maximumFileCount))
                        walked.unread.insert(path.identifier)
                        continue
                    }
                    walked.candidates.append(Candidate(path: path.identifier, file: path, size: status.size, modified: status.modified,
                                                       created: status.created, kind: kind, ext: ext))
                case .special(let what):
                    report.skipped[path.identifier] = "not a regular file (\(what)): skipped by type, never opened"
                case .symbolicLink:
                    // A resolved target is no link; it became one since.
                    report.skipped[path.identifier] = "vanished or unreadable while listing"
                }
            }
            stack += subdirectories.reversed().map { ($0, depth + 1) }
        }
        return walked
    }

    /// A scope's real path: symbolic links resolved, or as written when it does not exist.
    private static func realPath(_ scope: URL) -> FileItemPath {
        let written = FileItemPath(scope.standardizedFileURL.path)
        return realPath(of: written) ?? written
    }

    /// `path` with every symbolic link resolved, by realpath(3) on its bytes; nil when it
    /// dangles or cannot be read.
    private static func realPath(of path: FileItemPath) -> FileItemPath? {
        guard let resolved = path.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FileItemPath(bytes: Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) }))
    }

    /// The extension of a file name, as `NSString.pathExtension` reads it: after the last dot,
    /// unless that dot starts the name.
    private static func pathExtension(_ name: [UInt8]) -> String {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self)
    }
}
