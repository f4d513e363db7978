import Foundation

/// Lays out the content of a page (`MainContentFinder`'s roots, chrome left out) as text that
/// reads as the page does and that the passage splitter understands:
/// - inline elements flow into the line, and whitespace inside a block collapses to single
///   spaces, so a sentence wrapped across lines of the source is one line; `<br>` ends a line;
/// - block elements end the line, and blocks are separated by a blank line;
/// - `<h1>`…`<h6>` become Markdown heading lines (`# `…`###### `), which `PassageSplitter` makes
///   passage headings and heading paths;
/// - list items are one line each (`- item`, `1. item` in an ordered list, two spaces more per
///   nesting level), the items of a list not separated by blank lines;
/// - a data table's rows are one line each, cells joined by " | "; a table whose cells hold
///   blocks (a page's layout grid) is laid out as the blocks it holds;
/// - `<pre>` is kept whole as a fenced code block (```` ``` ```` lines, a longer fence when the
///   code holds backticks, the language from a `language-…` class), its newlines and
///   indentation as they are.
struct HTMLTextWriter {
    private let tree: HTMLTree
    private let dropped: [Bool]
    /// The finished blocks; `group` >= 0 ties the lines of one list or table together.
    private var blocks: [(text: [UInt8], group: Int)] = []
    /// The open block's text so far, whitespace collapsed.
    private var line: [UInt8] = []
    private var pendingSpace = false
    /// The open lists, outermost first: ordered or not, and the items seen.
    private var lists: [(index: Int, ordered: Bool, items: Int)] = []
    /// The marker of a list item whose first block has not been written yet.
    private var marker: [UInt8]?
    /// The list items open around the current block: a block after an item's first is indented.
    private var openItems = 0
    /// The open tables, outermost first, and whether each is a data table.
    private var tables: [(index: Int, isData: Bool)] = []
    /// The cells of the open data-table row.
    private var row: [[UInt8]]?
    private var cellDepth = 0
    /// The open headings, innermost last: their node and level.
    private var headings: [(index: Int, level: Int)] = []

    init(tree: HTMLTree, dropped: [Bool]) {
        self.tree = tree
        self.dropped = dropped
    }

    /// The text of the subtrees at `roots`, in order.
    mutating func write(_ roots: [Int]) -> String {
        for root in roots where !dropped[root] { walk(root) }
        flush()
        var output: [UInt8] = []
        var previousGroup = -1
        for (number, block) in blocks.enumerated() {
            if number > 0 {
                output.append(newline)
                if block.group < 0 || block.group != previousGroup { output.append(newline) }
            }
            output += block.text
            previousGroup = block.group
        }
        // A nested list's item can open the text with its indentation, and a block can begin
        // or end with whitespace other than ASCII's (an em space, U+3000): the text is trimmed.
        let text = String(decoding: output, as: UTF8.self)
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, CharacterSet.whitespacesAndNewlines.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, CharacterSet.whitespacesAndNewlines.contains(last) { scalars.removeLast() }
        return scalars.startIndex == text.startIndex && scalars.endIndex == text.endIndex ? text : String(scalars)
    }

    private let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")

    /// Visits the subtree at `root` in document order without recursion: each element is
    /// entered, its descendants visited, then it is left.
    private mutating func walk(_ root: Int) {
        var open: [Int] = []
        var index = root
        let stop = tree.nodes[root].end
        while index < stop {
            while let last = open.last, tree.nodes[last].end <= index {
                leave(last)
                open.removeLast()
            }
            let node = tree.nodes[index]
            if dropped[index] {
                index = node.end
                continue
            }
            if node.isText {
                append(node.text)
                index += 1
                continue
            }
            if node.layout == .preformatted {
                writeCode(index)
                index = node.end
                continue
            }
            enter(index)
            open.append(index)
            index += 1
        }
        while let last = open.popLast() { leave(last) }
    }

    private mutating func enter(_ index: Int) {
        let node = tree.nodes[index]
        switch node.layout {
        case .inline, .title, .chrome, .preformatted:
            break
        case .lineBreak:
            if cellDepth > 0 || !headings.isEmpty {
                pendingSpace = true
            } else if !line.isEmpty {
                trimTrailingSpaces()
                line.append(newline)
                pendingSpace = false
            }
        case .block:
            endBlock()
        case .heading(let level):
            endBlock()
            if cellDepth == 0 { headings.append((index, level)) }
        case .list(let ordered):
            endBlock()
            if cellDepth == 0 { lists.append((index, ordered, 0)) }
        case .listItem:
            endBlock()
            guard cellDepth == 0 else { return }
            let depth = max(lists.count, 1)
            var text = [UInt8](repeating: space, count: 2 * (depth - 1))
            if let list = lists.last, list.ordered {
                lists[lists.count - 1].items += 1
                text += Array("\(list.items + 1). ".utf8)
            } else {
                text += Array("- ".utf8)
            }
            marker = text
            openItems += 1
        case .table:
            endBlock()
            if cellDepth == 0 { tables.append((index, isDataTable(index))) }
        case .tableRow:
            endBlock()
            if cellDepth == 0, tables.last?.isData == true { row = [] }
        case .tableCell:
            if row != nil {
                cellDepth += 1
            } else {
                endBlock()
            }
        }
    }

    private mutating func leave(_ index: Int) {
        let node = tree.nodes[index]
        switch node.layout {
        case .inline, .title, .chrome, .preformatted, .lineBreak:
            break
        case .block:
            endBlock()
        case .heading:
            guard headings.last?.index == index else { return endBlock() }
            flush()
            headings.removeLast()
        case .list:
            endBlock()
            if cellDepth == 0, lists.last?.index == index { lists.removeLast() }
        case .listItem:
            endBlock()
            if cellDepth == 0 {
                marker = nil
                openItems = max(0, openItems - 1)
            }
        case .table:
            endBlock()
            if cellDepth == 0, tables.last?.index == index { tables.removeLast() }
        case .tableRow:
            if let cells = row, cellDepth == 0 {
                row = nil
                if cells.contains(where: { !$0.isEmpty }) {
                    // An empty first or last cell leaves no space at the line's ends.
                    var text = Array(cells.joined(separator: Array(" | ".utf8)))
                    while text.last == space { text.removeLast() }
                    while text.first == space { text.removeFirst() }
                    blocks.append((text, tables.last?.index ?? -1))
                }
            } else {
                endBlock()
            }
        case .tableCell:
            if cellDepth > 0 {
                cellDepth -= 1
                if cellDepth == 0 {
                    trimTrailingSpaces()
                    row?.append(line)
                    line = []
                    pendingSpace = false
                }
            } else {
                endBlock()
            }
        }
    }

    /// A block boundary: the open line ends, or inside a data-table cell, a space.
    private mutating func endBlock() {
        if cellDepth > 0 { pendingSpace = true } else { flush() }
    }

    /// Appends text with its whitespace collapsed (a no-break space counts as a space).
    private mutating func append(_ text: String) {
        var afterC2 = false
        for byte in text.utf8 {
            if afterC2 {
                afterC2 = false
                if byte == 0xA0 {
                    pendingSpace = true
                    continue
                }
                put(0xC2)
            }
            if byte == space || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = true
            } else if byte == 0xC2 {
                afterC2 = true
            } else {
                put(byte)
            }
        }
        if afterC2 { put(0xC2) }
    }

    private mutating func put(_ byte: UInt8) {
        if pendingSpace {
            if let last = line.last, last != newline { line.append(space) }
            pendingSpace = false
        }
        line.append(byte)
    }

    private mutating func trimTrailingSpaces() {
        while let last = line.last, last == space || last == newline { line.removeLast() }
    }

    /// Ends the open line as a block: a heading line inside a heading, the list marker before an
    /// item's first block.
    private mutating func flush() {
        trimTrailingSpaces()
        pendingSpace = false
        guard !isBlank(line) else {
            line = []
            return
        }
        var text: [UInt8]
        if let level = headings.last?.level {
            text = [UInt8](repeating: UInt8(ascii: "#"), count: level) + [space]
        } else if let pending = marker {
            text = pending
            marker = nil
        } else if openItems > 0 {
            text = [UInt8](repeating: space, count: 2 * lists.count)
        } else {
            text = []
        }
        text += line
        line = []
        blocks.append((text, lists.first?.index ?? -1))
    }

    /// Whether `bytes` hold no text: nothing, or whitespace other than ASCII's alone (an em
    /// space, U+3000), which `append` keeps as it keeps any other character.
    private func isBlank(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(where: { $0 < 0x80 && $0 != space && !(0x09...0x0D).contains($0) }) { return false }
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// A `<pre>` as a fenced code block; inside a data-table cell, as the cell's text.
    private mutating func writeCode(_ index: Int) {
        if cellDepth > 0 {
            append(tree.rawText(of: index))
            return
        }
        flush()
        var code: [UInt8] = []
        var inner = index + 1
        while inner < tree.nodes[index].end {
            let node = tree.nodes[inner]
            if dropped[inner] {
                inner = node.end
                continue
            }
            if node.isText {
                // Line ends as \n: a \r\n or a lone \r is one line end.
                var afterReturn = false
                for byte in node.text.utf8 {
                    if byte == UInt8(ascii: "\r") {
                        code.append(newline)
                        afterReturn = true
                        continue
                    }
                    if !(afterReturn && byte == newline) { code.append(byte) }
                    afterReturn = false
                }
            } else if node.layout == .lineBreak {
                code.append(newline)
            }
            inner += 1
        }
        // No blank lines before the code, no whitespace after it.
        while let last = code.last, last == space || last == newline || last == 0x09 { code.removeLast() }
        guard !isBlank(code) else { return }
        if let firstCharacter = code.firstIndex(where: { !($0 == space || $0 == newline || $0 == 0x09) }),
           let lineStart = code[..<firstCharacter].lastIndex(of: newline) {
            code.removeSubrange(...lineStart)
        }
        var longestRun = 0, run = 0
        for byte in code {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let fence = [UInt8](repeating: UInt8(ascii: "`"), count: max(3, longestRun + 1))
        var block = fence + Array(language(of: index).utf8)
        block.append(newline)
        block += code
        block.append(newline)
        block += fence
        blocks.append((block, -1))
    }

    /// The code's language from a `language-…` or `lang-…` class on the `<pre>` or its first `<code>`.
    private func language(of index: Int) -> String {
        var candidates = [index]
        if let code = tree.children(of: index).first(where: { tree.nodes[$0].name == "code" }) { candidates.append(code) }
        for candidate in candidates {
            for token in (tree.nodes[candidate].attribute("class") ?? "").split(separator: " ") {
                for prefix in ["language-", "lang-"] where token.hasPrefix(prefix) {
                    let name = token.dropFirst(prefix.count).filter { $0.isLetter || $0.isNumber || "+-#_.".contains($0) }
                    if !name.isEmpty { return String(name) }
                }
            }
        }
        return ""
    }

    /// Whether a table holds data (its cells hold only inline content) rather than laying out
    /// a page (its cells hold blocks, lists, headings or tables).
    private func isDataTable(_ index: Int) -> Bool {
        var inner = index + 1
        let end = tree.nodes[index].end
        while inner < end {
            let node = tree.nodes[inner]
            if dropped[inner] {
                inner = node.end
                continue
            }
            if node.layout == .tableCell {
                var cellInner = inner + 1
                while cellInner < node.end {
                    if !dropped[cellInner], tree.nodes[cellInner].layout.isBlockInsideCell { return false }
                    cellInner = dropped[cellInner] ? tree.nodes[cellInner].end : cellInner + 1
                }
                inner = node.end
                continue
            }
            inner += 1
        }
        return true
    }
}
