/// A stretch of an item's text, split at natural boundaries (pages, headings, paragraphs) when
/// the item is indexed, a few hundred tokens long, searchable on its own. Long documents are
/// read a passage at a time, so a fact on page 40 can reach a model without pages 1–39; a short
/// item is one passage, its whole text.
public struct Passage: Sendable, Hashable {
    public var itemIdentifier: String
    /// Its place among the item's passages, from 0 (what `fetch` takes back).
    public var index: Int
    /// How many passages the item has.
    public var count: Int
    public var location: PassageLocation
    public var text: String

    public init(itemIdentifier: String, index: Int, count: Int, location: PassageLocation, text: String) {
        self.itemIdentifier = itemIdentifier
        self.index = index
        self.count = count
        self.location = location
        self.text = text
    }
}

extension Passage {
    /// The most UTF-8 bytes a passage holds (unless one word is longer).
    public static let maximumLength = PassageSplitter.maximumBytes

    /// How the index splits a text of this content type into passages (pages, Markdown
    /// headings, paragraphs), without indexing it: each passage's text and location, in order.
    /// A text that fits one passage is one, the whole text.
    public static func split(_ text: String, contentType: String? = nil) -> [(text: String, location: PassageLocation)] {
        let bytes = Array(text.utf8)
        return PassageSplitter.spans(of: text, markdown: PassageSplitter.isMarkdown(contentType)).map { span in
            (String(decoding: bytes[span.start..<span.end], as: UTF8.self), span.location)
        }
    }
}
