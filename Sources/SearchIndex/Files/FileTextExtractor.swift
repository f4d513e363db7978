import Foundation

/// Turns a file's bytes into indexable text by kind: plain text, Markdown and source code as they
/// are, HTML as the text of its main content (`HTMLTextExtractor`), PDF through `pdftotext`
/// (poppler-utils) run as a child process with a timeout. Invalid UTF-8 becomes U+FFFD and NUL
/// bytes are dropped: never fatal. Every file's open and read has the same deadline as `pdftotext`'s run
/// (`pdfTimeout`), and a file on a pseudo-filesystem is refused before it is read.
package struct FileTextExtractor: Sendable {
    enum Kind: Sendable, Equatable { case text, markdown, source, html, pdf, binary, unknown }

    /// Why a file's text could not be read; reported, never thrown out of a refresh.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// A file's text, and whether `maximumBytes` cut it.
    struct Extracted: Sendable {
        var text: String
        var title: String?
        var reachedByteCap: Bool
    }

    /// How long a file's reading may take: `pdftotext`'s run for a PDF, the open and the read
    /// for any other file.
    var pdfTimeout: Duration
    var pdftotextPath: String
    var maximumBytes: Int

    static func kind(ofExtension ext: String) -> Kind {
        switch ext.lowercased() {
        case "txt", "text", "log", "csv", "tsv", "json", "yaml", "yml", "toml", "ini", "cfg", "conf", "xml", "rst", "tex": .text
        case "md", "markdown", "mdown": .markdown
        case "swift", "c", "h", "cc", "cpp", "hpp", "m", "mm", "py", "js", "ts", "tsx", "jsx", "go", "rs", "java", "kt",
             "rb", "sh", "bash", "zsh", "sql", "css", "scss", "lua", "pl", "php", "cs", "r", "scala", "hs", "el", "vim": .source
        case "html", "htm", "xhtml": .html
        case "pdf": .pdf
        case "png", "jpg", "jpeg", "gif", "bmp", "tiff", "ico", "webp", "heic", "zip", "gz", "tgz", "bz2", "xz", "7z", "tar",
             "rar", "jar", "so", "dylib", "a", "o", "exe", "dll", "bin", "class", "pyc", "mp3", "mp4", "mov", "avi", "mkv",
             "wav", "flac", "ogg", "woff", "woff2", "ttf", "otf", "sqlite", "db", "iso", "dmg", "deb", "rpm": .binary
        default: .unknown
        }
    }

    /// A UTI for the file's kind and extension, as Core Spotlight's contentType.
    static func contentType(kind: Kind, ext: String) -> String {
        switch kind {
        case .markdown: "net.daringfireball.markdown"
        case .html: "public.html"
        case .pdf: "com.adobe.pdf"
        case .source:
            switch ext.lowercased() {
            case "swift": "public.swift-source"
            case "c": "public.c-source"
            case "h": "public.c-header"
            case "py": "public.python-script"
            case "js": "com.netscape.javascript-source"
            default: "public.source-code"
            }
        case .text:
            switch ext.lowercased() {
            case "json": "public.json"
            case "csv": "public.comma-separated-values-text"
            case "xml": "public.xml"
            default: "public.plain-text"
            }
        case .binary, .unknown: "public.data"
        }
    }

    /// The text of the file an item identifier names (see `FileItemPath`), or nil when it is
    /// binary.
    func extract(path identifier: String, kind: Kind) async throws(Failure) -> (text: String, title: String?)? {
        guard let file = FileItemPath(identifier: identifier) else {
            throw Failure(description: "not a file path: \(identifier)")
        }
        return try await extract(file, kind: kind).map { ($0.text, $0.title) }
    }

    /// The text of a file, or nil when it is binary (NUL bytes in its first 8 KB). The file is
    /// opened without blocking and read only if it is a regular file then, not on a
    /// pseudo-filesystem: the walk saw one, but it may have been replaced since by a FIFO (whose
    /// open would wait for a writer forever) or a device. A PDF is read by `pdftotext` from the
    /// same open file, so it cannot be swapped in between either. The open and the read run
    /// under the deadline (`pdfTimeout`).
    func extract(_ file: FileItemPath, kind: Kind) async throws(Failure) -> Extracted? {
        let deadline = ReadDeadline(timeout: pdfTimeout)
        if kind == .pdf {
            let handle = try await deadline.run("opening the file") { () -> Result<FileHandle, Failure> in
                Result { () throws(Failure) in try Self.openRegularFile(file) }
            }
            let (text, cut) = try await pdfText(handle)
            return Extracted(text: text, title: nil, reachedByteCap: cut)
        }
        let limit = maximumBytes
        let bytes = try await deadline.run("reading the file") { () -> Result<Data, Failure> in
            Result { () throws(Failure) in
                let handle = try Self.openRegularFile(file)
                defer { try? handle.close() }
                return try Self.readBlocking(handle, upToCount: limit + 1)
            }
        }
        if bytes.prefix(8192).contains(0) { return nil }
        let reachedByteCap = bytes.count > limit
        if kind == .html {
            let stripped = HTMLTextExtractor.extract(bytes.prefix(limit))
            return Extracted(text: stripped.text, title: stripped.title, reachedByteCap: reachedByteCap)
        }
        let text = String(decoding: bytes.prefix(limit), as: UTF8.self)
        return Extracted(text: text, title: nil, reachedByteCap: reachedByteCap)
    }

    /// Up to `count` bytes of `handle`, read on a dispatch thread and given up after `timeout`
    /// (the read is left to end on its own; see `ReadDeadline`).
    package static func read(_ handle: FileHandle, upToCount count: Int, timeout: Duration) async throws(Failure) -> Data {
        try await ReadDeadline(timeout: timeout).run("reading the file") { () -> Result<Data, Failure> in
            Result { () throws(Failure) in try Self.readBlocking(handle, upToCount: count) }
        }
    }

    private static func readBlocking(_ handle: FileHandle, upToCount count: Int) throws(Failure) -> Data {
        do {
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            throw Failure(description: "cannot read: \(error.localizedDescription)")
        }
    }

    /// Opens `path` for reading with O_NONBLOCK (which returns at once for a FIFO without a
    /// writer), refuses anything but a regular file and a file on a pseudo-filesystem (the
    /// walk skips their folders; a file can be mounted onto a folder of its own), then lets
    /// reads block as usual.
    static func openRegularFile(_ path: FileItemPath) throws(Failure) -> FileHandle {
        let descriptor = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw Failure(description: "cannot read: \(String(cString: strerror(errno)))") }
        guard let status = FileStatus.of(descriptor: descriptor) else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot read: \(reason)")
        }
        guard status.kind == .regular else {
            close(descriptor)
            throw Failure(description: "not a regular file any more (it became a FIFO, socket, device or folder after the walk listed it)")
        }
        if let system = PseudoFileSystem.of(descriptor: descriptor) {
            close(descriptor)
            throw Failure(description: "on the pseudo-filesystem \(system) (kernel state, not a document): skipped by type before reading")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Runs `pdftotext -enc UTF-8 - -` on the open file (its standard input); kills it after
    /// `pdfTimeout`. Returns the text and whether `maximumBytes` cut it.
    private func pdfText(_ file: FileHandle) async throws(Failure) -> (String, Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pdftotextPath)
        process.arguments = ["-enc", "UTF-8", "-q", "-", "-"]
        let output = Pipe()
        process.standardInput = file
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            try? file.close()
            throw Failure(description: "cannot run \(pdftotextPath) (install poppler-utils): \(error.localizedDescription)")
        }
        // The child has its own copy of the descriptor now.
        try? file.close()
        let limit = maximumBytes
        // The read blocks until pdftotext ends, so it runs on a dispatch thread: on the cooperative
        // pool (one thread per core) it could hold the thread the deadline loop below needs.
        let reader = Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<(Data, Bool), Never>) in
                DispatchQueue.global(qos: .utility).async {
                    var data = Data()
                    var cut = false
                    while let chunk = try? output.fileHandleForReading.read(upToCount: 65_536), !chunk.isEmpty {
                        if data.count + chunk.count > limit { cut = true }
                        if data.count < limit { data.append(chunk.prefix(limit - data.count)) }
                    }
                    continuation.resume(returning: (data, cut))
                }
            }
        }
        let deadline = ContinuousClock.now + pdfTimeout
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning {
            process.terminate()
            reader.cancel()
            try? output.fileHandleForReading.close()
            throw Failure(description: "pdftotext took longer than \(pdfTimeout) and was stopped")
        }
        let (data, cut) = await reader.value
        guard process.terminationStatus == 0 else {
            throw Failure(description: "pdftotext failed with status \(process.terminationStatus) (not a readable PDF?)")
        }
        return (String(decoding: data, as: UTF8.self), cut)
    }
}
