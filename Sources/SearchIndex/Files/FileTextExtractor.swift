import Foundation

/// Turns a file's bytes into indexable text by kind: plain text, Markdown and source code as they
/// are, HTML with tags, scripts and styles stripped, PDF through `pdftotext` (poppler-utils) run
/// as a child process with a timeout. Invalid UTF-8 becomes U+FFFD and NUL bytes are dropped:
/// never fatal.
struct FileTextExtractor: Sendable {
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

    /// The text of a file, or nil when it is binary (NUL bytes in its first 8 KB).
    func extract(path: String, kind: Kind) async throws(Failure) -> (text: String, title: String?)? {
        if kind == .pdf { return (try await pdfText(path: path), nil) }
        let bytes: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            bytes = try handle.read(upToCount: maximumBytes) ?? Data()
        } catch {
            throw Failure(description: "cannot read: \(error.localizedDescription)")
        }
        if bytes.prefix(8192).contains(0) { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return kind == .html ? Self.stripHTML(text) : (text, nil)
    }

    /// HTML to text: drops script/style/comments and tags, decodes common entities, keeps `<title>`.
    static func stripHTML(_ html: String) -> (text: String, title: String?) {
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

    /// Runs `pdftotext -enc UTF-8 <file> -`; kills it after `pdfTimeout`.
    private func pdfText(path: String) async throws(Failure) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pdftotextPath)
        process.arguments = ["-enc", "UTF-8", "-q", path, "-"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw Failure(description: "cannot run \(pdftotextPath) (install poppler-utils): \(error.localizedDescription)")
        }
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
