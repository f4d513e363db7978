/// One node of a parsed HTML page, as `HTMLDocument` copies it out of libxml2's tree: an element
/// (its lowercase name, its layout and the attributes that tell content from page chrome) or a
/// run of text with its entities decoded. Nodes are stored in document order (`HTMLTree`), so a
/// node's descendants are the nodes after it up to `end`.
struct HTMLNode: Sendable {
    /// The element's name in lowercase (libxml2's HTML parser lowercases them); empty for text.
    var name: String
    /// How the element lays out its text (`.inline` for a text node).
    var layout: HTMLLayout
    /// A text node's text, entities decoded; empty for an element.
    var text: String
    /// The element's attributes among `keptAttributes`, names in lowercase.
    var attributes: [(name: String, value: String)]
    /// The parent's index in the tree; -1 for a top-level node.
    var parent: Int
    /// One past the index of the node's last descendant.
    var end: Int

    var isText: Bool { name.isEmpty }

    /// The attributes anything downstream reads; the others are not copied out of libxml2.
    static let keptAttributes: Set<String> = ["id", "class", "role", "hidden", "aria-hidden", "style", "href"]

    /// The value of an attribute (names are lowercase), or nil when the element has none.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The element's `class` and `id`, ASCII lowercased, for the name patterns of chrome and
    /// content; empty when it has neither.
    var classAndIdentifier: [UInt8] {
        let names = [attribute("class"), attribute("id")].compactMap { $0 }
        return names.isEmpty ? [] : ASCIIMatch.lowercased(names.joined(separator: " "))
    }

    /// The first token of the element's `role`, lowercased.
    var role: String? {
        attribute("role")?.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.map(String.init)
    }
}
