import Foundation
import Synchronization
import Testing
@testable import SearchIndex

@Suite struct FileSourceTests {
    /// A one-page PDF showing `text`, written by hand with a correct cross-reference table.
    static func pdf(_ text: String) -> Data { pdf(pages: [text]) }

    /// A PDF with one page per element, each showing its lines (one string per line, ASCII
    /// without parentheses or backslashes), written by hand with a correct cross-reference table.
    static func pdf(pages: [[String]]) -> Data {
        // Objects: 1 catalog, 2 page tree, 3 font, then a page and its content stream per page.
        let pageObjects = pages.indices.map { 4 + 2 * $0 }
        var objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [\(pageObjects.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(pages.count) >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
        for (number, lines) in pages.enumerated() {
            let shown = lines.map { "(\($0)) Tj T*" }.joined(separator: " ")
            let stream = "BT /F1 12 Tf 14 TL 72 720 Td \(shown) ET"
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents \(pageObjects[number] + 1) 0 R /Resources << /Font << /F1 3 0 R >> >> >>")
            objects.append("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream")
        }
        var body = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (number, object) in objects.enumerated() {
            offsets.append(body.utf8.count)
            body += "\(number + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = body.utf8.count
        body += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { body += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        body += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(body.utf8)
    }

    static func pdf(pages: [String]) -> Data { pdf(pages: pages.map { [$0] }) }

    @Test func indexesAFolderTreeIncrementallyAndSafely() async throws {
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent("scope")
        let manager = FileManager.default
        // 10,000 text files in 100 folders nested two levels deep.
        for group in 0..<10 {
            for sub in 0..<10 {
                let directory = root.appendingPathComponent("g\(group)/s\(sub)")
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
                for file in 0..<100 {
                    let number = (group * 10 + sub) * 100 + file
                    try Data("note \(number) about topic\(number % 7) and marker\(number)\n".utf8)
                        .write(to: directory.appendingPathComponent("n\(number).txt"))
                }
            }
        }
        let special = root.appendingPathComponent("special")
        try manager.createDirectory(at: special, withIntermediateDirectories: true)
        try Data("# Heading\n\nMarkdown body with lanternmarkdown word".utf8).write(to: special.appendingPathComponent("readme.md"))
        try Data("<html><head><title>Page Title</title><script>var hiddenscript = 1;</script></head><body><p>Visible &amp; htmlword</p></body></html>".utf8)
            .write(to: special.appendingPathComponent("page.html"))
        try Data("func swiftword() {}".utf8).write(to: special.appendingPathComponent("code.swift"))
        try Self.pdf("Hello pdfword from Lantern").write(to: special.appendingPathComponent("doc.pdf"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 0, 1, 2]).write(to: special.appendingPathComponent("image.png"))
        try Data([0x41, 0x00, 0x42, 0xFF, 0x00]).write(to: special.appendingPathComponent("blob.dat"))
        var invalid = Data("invalidutf word ".utf8)
        invalid.append(contentsOf: [0xC3, 0x28, 0xFF, 0xFE])
        invalid.append(Data(" tail".utf8))
        try invalid.write(to: special.appendingPathComponent("invalid.txt"))
        var lateNul = Data(String(repeating: "padding ", count: 1_100).utf8)
        lateNul.append(contentsOf: [0])
        lateNul.append(Data(" latenulword".utf8))
        try lateNul.write(to: special.appendingPathComponent("latenul.txt"))
        try Data("secret hiddenfileword".utf8).write(to: special.appendingPathComponent(".hidden.txt"))
        try Data("gone soon".utf8).write(to: special.appendingPathComponent("zz-removed-mid-walk.txt"))
        // A symlink loop, a link leaving the scope, and a FIFO (open() on it would block: never opened).
        try manager.createSymbolicLink(atPath: special.appendingPathComponent("loop").path, withDestinationPath: root.path)
        let outside = folder.url.appendingPathComponent("outside")
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("outsideword".utf8).write(to: outside.appendingPathComponent("o.txt"))
        try manager.createSymbolicLink(atPath: special.appendingPathComponent("out").path, withDestinationPath: outside.path)
        #expect(mkfifo(special.appendingPathComponent("pipe.txt").path, 0o644) == 0)

        let index = try folder.index()
        let source = FileSource(scopes: [root])
        let removedFile = special.appendingPathComponent("zz-removed-mid-walk.txt").path
        let calls = Mutex(0)
        let report = try await source.refresh(into: index) { progress in
            // Tests run as root, so chmod 000 would not make a file unreadable; instead a file is
            // removed after the walk listed it and before it is read.
            if calls.withLock({ $0 += 1; return $0 }) == 1 { try? FileManager.default.removeItem(atPath: removedFile) }
        }
        let specials = ["readme.md", "page.html", "code.swift", "doc.pdf", "invalid.txt", "latenul.txt"]
        #expect(report.indexed == 10_000 + specials.count)
        #expect(calls.withLock { $0 } == 10_000 + specials.count + 2)
        #expect(report.skipped[removedFile]?.contains("cannot read") == true)
        #expect(report.skipped[special.appendingPathComponent("image.png").path] == "binary file type")
        #expect(report.skipped[special.appendingPathComponent("blob.dat").path] == "binary content")
        #expect(report.skipped[special.appendingPathComponent("pipe.txt").path]?.contains("not a regular file") == true)
        #expect(report.skipped[special.appendingPathComponent("out").path]?.contains("outside") == true)
        #expect(!report.reachedLimit)
        #expect(try await index.count() == 10_000 + specials.count)

        #expect(try await index.ids(.fullText("marker4242")) == [root.appendingPathComponent("g4/s2/n4242.txt").path])
        for word in ["lanternmarkdown", "htmlword", "swiftword", "pdfword", "invalidutf", "latenulword"] {
            #expect(try await index.ids(.fullText(word)).count == 1, "\(word)")
        }
        for word in ["hiddenscript", "hiddenfileword", "outsideword"] {
            #expect(try await index.ids(.fullText(word)).isEmpty, "\(word)")
        }
        let page = try #require(try await index.fetchItems(identifiers: [special.appendingPathComponent("page.html").path]).first)
        #expect(page.attributeSet.title == "Page Title")
        #expect(page.attributeSet.contentType == "public.html")
        #expect(page.attributeSet.textContent?.contains("<") == false)
        let pdfItem = try #require(try await index.fetchItems(identifiers: [special.appendingPathComponent("doc.pdf").path]).first)
        #expect(pdfItem.attributeSet.contentType == "com.adobe.pdf")
        #expect(pdfItem.attributeSet.fileSize == Double(Self.pdf("Hello pdfword from Lantern").count))

        // Second pass: nothing changed; then one file changes size, one disappears.
        let second = try await source.refresh(into: index)
        #expect(second.indexed == 0)
        #expect(second.unchanged == 10_000 + specials.count)
        try Data("note rewritten with freshword".utf8).write(to: root.appendingPathComponent("g0/s0/n1.txt"))
        try manager.removeItem(at: root.appendingPathComponent("g0/s0/n2.txt"))
        let third = try await source.refresh(into: index)
        #expect(third.indexed == 1)
        #expect(third.removed == 1)
        #expect(try await index.ids(.fullText("freshword")) == [root.appendingPathComponent("g0/s0/n1.txt").path])
        #expect(try await index.ids(.fullText("marker2")).isEmpty)
        #expect(try await index.count() == 10_000 + specials.count - 1)
    }

    @Test func capsStopTheWalkAndKeepUnseenItems() async throws {
        let folder = try TemporaryFolder()
        let root = folder.url.appendingPathComponent("scope/a/b/c")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for number in 0..<5 { try Data("capword \(number)".utf8).write(to: folder.url.appendingPathComponent("scope/f\(number).txt")) }
        try Data("deepword".utf8).write(to: root.appendingPathComponent("deep.txt"))
        let index = try folder.index()
        var source = FileSource(scopes: [folder.url.appendingPathComponent("scope")])
        source.maximumFileCount = 3
        source.maximumDepth = 2
        let report = try await source.refresh(into: index)
        #expect(report.reachedLimit)
        #expect(report.indexed == 3)
        #expect(try await index.ids(.fullText("deepword")).isEmpty)
    }

    @Test func pdfTimeoutStopsTheProcess() async throws {
        let folder = try TemporaryFolder()
        let script = folder.url.appendingPathComponent("slow-pdftotext")
        try Data("#!/bin/sh\nsleep 30\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let scope = folder.url.appendingPathComponent("scope")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        try Self.pdf("slow").write(to: scope.appendingPathComponent("slow.pdf"))
        var source = FileSource(scopes: [scope])
        source.pdftotextPath = script.path
        source.pdfTimeout = .milliseconds(300)
        let index = try folder.index()
        let report = try await source.refresh(into: index)
        #expect(report.skipped[scope.appendingPathComponent("slow.pdf").path]?.contains("longer than") == true)
        #expect(try await index.count() == 0)
    }
}
