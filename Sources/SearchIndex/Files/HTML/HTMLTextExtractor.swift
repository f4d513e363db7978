import Foundation

/// HTML to text as a person reads the page: the page is decoded from the encoding it declares
/// (`HTMLCharset`, UTF-8 when it declares none; `CharsetDecoder`), libxml2's HTML parser builds
/// the tree (`HTMLDocument`: every entity decoded, broken markup tolerated), the site's chrome
/// is left out (`PageChrome`), the page's main content is found (`MainContentFinder`) and laid
/// out with Markdown-style headings, list items, table rows and fenced code (`HTMLTextWriter`).
/// The `<title>` is returned as the title, never as part of the text. Never fails: bytes
/// libxml2 makes no document of (none at all) are a page with no text.
package enum HTMLTextExtractor {
    /// The text and the title of the page in `bytes`.
    package static func extract(_ bytes: Data) -> (text: String, title: String?) {
        let document: HTMLDocument? = bytes.withUnsafeBytes { raw in
            let charset = HTMLCharset.of(raw)
            let content = UnsafeRawBufferPointer(rebasing: raw[charset.byteOrderMarkLength...])
            // Invalid bytes become U+FFFD, as in every other kind of file, and NUL bytes are dropped.
            var text: String
            if !charset.isUTF8, let decoded = CharsetDecoder.utf8(from: content, encoding: charset.name) {
                text = String(decoding: decoded, as: UTF8.self)
            } else {
                text = String(decoding: content, as: UTF8.self)
            }
            if text.utf8.contains(0) { text = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value != 0 })) }
            return text.utf8.withContiguousStorageIfAvailable { HTMLDocument(utf8: UnsafeRawBufferPointer($0)) }
                ?? Array(text.utf8).withUnsafeBytes { HTMLDocument(utf8: $0) }
        }
        guard let document else { return ("", nil) }
        return page(document.tree())
    }

    /// The text and title of a parsed page.
    static func page(_ tree: HTMLTree) -> (text: String, title: String?) {
        let dropped = PageChrome.droppedNodes(in: tree)
        let roots = MainContentFinder(tree: tree, dropped: dropped).roots()
        var writer = HTMLTextWriter(tree: tree, dropped: dropped)
        return (writer.write(roots), title(in: tree))
    }

    /// The page's `<title>` (the first one outside an `<svg>` or `<math>`) on one line, every
    /// run of whitespace one space; nil when it has none or it is empty. Whitespace is split by
    /// Unicode scalar, not by Character: a joiner after a space is part of the title.
    static func title(in tree: HTMLTree) -> String? {
        guard let index = tree.nodes.indices.first(where: {
            tree.nodes[$0].layout == .title && !tree.hasAncestor(of: $0, named: ["svg", "math"])
        }) else { return nil }
        let words = tree.rawText(of: index).unicodeScalars.split { $0.properties.isWhitespace }
        return words.isEmpty ? nil : words.map { String(String.UnicodeScalarView($0)) }.joined(separator: " ")
    }
}
