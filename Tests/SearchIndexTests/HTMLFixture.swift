import Foundation
import Testing

/// A hand-written page under Fixtures/html and what a reader sees on it, written down with the
/// page in Fixtures/html/pages.json (not taken from any extractor's output; the bench's html
/// section reads the same file): its title, its running text, its heading lines, the sentences
/// its source wraps across lines, and its chrome — the strings of the site around the text
/// (menus, theme pickers, search, footers, banners) that must not reach the index.
struct HTMLFixture: Sendable, Decodable, CustomTestStringConvertible {
    var file: String
    var title: String
    /// Strings of the page's running text, each within one block of the text.
    var runningText: [String]
    /// Lines the text holds exactly: headings as `#` lines, list items, table rows.
    var lines: [String]
    /// Sentences the HTML source wraps across lines, whitespace collapsed.
    var wrappedSentences: [String]
    var chrome: [String]

    var testDescription: String { file }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/html")

    var url: URL { Self.folder.appendingPathComponent(file) }

    /// Every page of pages.json, in its order.
    static let all: [HTMLFixture] = {
        do {
            return try JSONDecoder().decode([HTMLFixture].self, from: Data(contentsOf: folder.appendingPathComponent("pages.json")))
        } catch {
            fatalError("Fixtures/html/pages.json: \(error)")
        }
    }()

    static func named(_ file: String) -> HTMLFixture {
        guard let fixture = all.first(where: { $0.file == file }) else { fatalError("no fixture \(file) in pages.json") }
        return fixture
    }
}
