import CXML2

/// A page parsed by libxml2's HTML parser, which builds a tree from any markup a browser would
/// read (unclosed and misnested tags, stray `</p>`s, text outside `<body>`) and decodes every
/// entity, named or numeric. It owns the `xmlDoc` and frees it with itself; `tree()` copies the
/// parts the text extraction reads into plain Swift values, so no libxml2 pointer leaves this file.
///
/// Parsing never reaches the network (`HTML_PARSE_NONET`), reports nothing on stderr
/// (`NOERROR`, `NOWARNING`), and keeps libxml2's limits on a text node's and a name's size
/// (`HTML_PARSE_HUGE` is off); the caller caps the bytes. The bytes are UTF-8, decoded by the
/// caller from the page's declared encoding: libxml2 is told to ignore the document's own
/// declaration (`HTML_PARSE_IGNORE_ENC`), so a `<meta charset>` cannot switch encodings again.
final class HTMLDocument {
    private let document: htmlDocPtr

    /// Parses `bytes`, which are UTF-8 (`HTMLTextExtractor` decodes a page to UTF-8 first); nil
    /// when libxml2 returns no document (empty input).
    init?(utf8 bytes: UnsafeRawBufferPointer) {
        Self.initializeOnce()
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let options = HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_IGNORE_ENC.rawValue | HTML_PARSE_NODEFDTD.rawValue
        let size = Int32(clamping: bytes.count)
        guard let parsed = htmlReadMemory(base.assumingMemoryBound(to: CChar.self), size, nil, "UTF-8", Int32(bitPattern: options)) else {
            return nil
        }
        document = parsed
    }

    deinit { xmlFreeDoc(document) }

    /// libxml2's global state, set up once before any thread parses (its documented rule for
    /// parsing on several threads).
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    private static func initializeOnce() { _ = initialized }

    /// The document's elements and text as an `HTMLTree`, in document order. Comments,
    /// processing instructions and the doctype are left out. Walks libxml2's tree without
    /// recursion, so nesting depth costs no stack.
    func tree() -> HTMLTree {
        var tree = HTMLTree()
        // Elements whose children are being copied: their index in `tree` and their node.
        var open: [(index: Int, node: xmlNodePtr)] = []
        var current = document.pointee.children
        while let node = current {
            var descend = false
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                let name = node.pointee.name.map { String(cString: $0) } ?? ""
                let index = tree.nodes.count
                tree.nodes.append(HTMLNode(name: name, layout: HTMLLayout.of(name), text: "",
                                           attributes: Self.keptAttributes(of: node), parent: open.last?.index ?? -1, end: index + 1))
                if node.pointee.children != nil {
                    open.append((index, node))
                    descend = true
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content {
                    let index = tree.nodes.count
                    tree.nodes.append(HTMLNode(name: "", layout: .inline, text: String(cString: content), attributes: [],
                                               parent: open.last?.index ?? -1, end: index + 1))
                }
            default:
                break
            }
            if descend {
                current = node.pointee.children
                continue
            }
            var cursor: xmlNodePtr? = node
            while let here = cursor, here.pointee.next == nil {
                guard let closed = open.popLast() else {
                    cursor = nil
                    break
                }
                tree.nodes[closed.index].end = tree.nodes.count
                cursor = closed.node
            }
            current = cursor?.pointee.next
        }
        return tree
    }

    /// The element's attributes that `HTMLNode.keptAttributes` names, with their text values.
    private static func keptAttributes(of node: xmlNodePtr) -> [(name: String, value: String)] {
        var kept: [(name: String, value: String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            attribute = current.pointee.next
            guard let namePointer = current.pointee.name else { continue }
            let name = String(cString: namePointer)
            guard HTMLNode.keptAttributes.contains(name) else { continue }
            var value = ""
            var child = current.pointee.children
            while let text = child {
                if let content = text.pointee.content { value += String(cString: content) }
                child = text.pointee.next
            }
            kept.append((name, value))
        }
        return kept
    }
}
