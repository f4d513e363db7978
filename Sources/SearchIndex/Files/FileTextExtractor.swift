import Foundation

/// Turns a file's bytes into indexable text by kind: plain text, Markdown and source code as they
/// are, HTML with tags, scripts and styles stripped, PDF through `pdftotext` (poppler-utils) run
/// as a child process with a timeout. Invalid UTF-8 becomes U+FFFD and NUL bytes are dropped:
/// never fatal.
package struct FileTextExtractor: Sendable {
    enum Kind: Sendable, Equatable { case text, markdown, source, html, pdf, binary, unknown }

    /// Why a file's text could not be read; reported, never thrown out of a refresh.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

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

    /// The text of a file, or nil when it is binary (NUL bytes in its first 8 KB). The file is
    /// opened without blocking and read only if it is a regular file then: the walk saw one, but
    /// it may have been replaced since by a FIFO (whose open would wait for a writer forever) or
    /// a device. A PDF is read by `pdftotext` from the same open file, so it cannot be swapped
    /// in between either.
    func extract(path: String, kind: Kind) async throws(Failure) -> (text: String, title: String?)? {
        let file = try Self.openRegularFile(path)
        if kind == .pdf { return (try await pdfText(file), nil) }
        defer { try? file.close() }
        let bytes: Data
        do {
            bytes = try file.read(upToCount: maximumBytes) ?? Data()
        } catch {
            throw Failure(description: "cannot read: \(error.localizedDescription)")
        }
        if bytes.prefix(8192).contains(0) { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return kind == .html ? Self.stripHTML(text) : (text, nil)
    }

    /// Opens `path` for reading with O_NONBLOCK (which returns at once for a FIFO without a
    /// writer), refuses anything but a regular file, then lets reads block as usual.
    static func openRegularFile(_ path: String) throws(Failure) -> FileHandle {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "cannot read: \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot read: \(reason)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw Failure(description: "not a regular file any more (it became a FIFO, socket, device or folder after the walk listed it)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// HTML to text: drops script/style/comments and tags, decodes common entities, keeps `<title>`.
    package static func stripHTML(_ html: String) -> (text: String, title: String?) {
        var text = html
        let title = text.range(of: "<title[^>]*>([^<]*)</title>", options: [.regularExpression, .caseInsensitive]).map {
            String(text[$0]).replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for pattern in ["<!--[\\s\\S]*?-->", "<script[^>]*>[\\s\\S]*?</script>", "<style[^>]*>[\\s\\S]*?</style>", "<[^>]*>"] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: [.regularExpression, .caseInsensitive])
        }
        for (entity, replacement) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: replacement)
        }
        text = text.replacingOccurrences(of: "[ \\t]+", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "\\s*\\n\\s*", with: "\n", options: .regularExpression)
        return (text.trimmingCharacters(in: .whitespacesAndNewlines), title?.isEmpty == false ? title : nil)
    }

    /// Runs `pdftotext -enc UTF-8 - -` on the open file (its standard input); kills it after
    /// `pdfTimeout`.
    private func pdfText(_ file: FileHandle) async throws(Failure) -> String {
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
            await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
                DispatchQueue.global(qos: .utility).async {
                    var data = Data()
                    while let chunk = try? output.fileHandleForReading.read(upToCount: 65_536), !chunk.isEmpty {
                        if data.count < limit { data.append(chunk.prefix(limit - data.count)) }
                    }
                    continuation.resume(returning: data)
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
        let data = await reader.value
        guard process.terminationStatus == 0 else {
            throw Failure(description: "pdftotext failed with status \(process.terminationStatus) (not a readable PDF?)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
