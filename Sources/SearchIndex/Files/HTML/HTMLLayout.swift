/// How an HTML element places its text: inline elements flow into the current line, block
/// elements end it, and the structural ones (headings, lists, tables, preformatted text) get
/// the Markdown-like shape `HTMLTextWriter` gives them. Elements that never hold readable text
/// (scripts, styles, forms, navigation, embedded media) are `.chrome`. An element not listed
/// is inline, as a browser treats an unknown element.
enum HTMLLayout: Sendable, Equatable {
    case inline
    case block
    case heading(level: Int)
    case list(ordered: Bool)
    case listItem
    case table
    case tableRow
    case tableCell
    case preformatted
    case lineBreak
    case title
    case chrome

    static func of(_ name: String) -> HTMLLayout {
        layouts[name] ?? .inline
    }

    private static let layouts: [String: HTMLLayout] = {
        var layouts: [String: HTMLLayout] = [:]
        for name in ["html", "body", "main", "article", "section", "div", "p", "blockquote", "address", "center",
                     "dl", "dt", "dd", "figure", "figcaption", "details", "summary", "hr", "fieldset", "legend",
                     "caption", "hgroup", "header", "footer", "search", "listing", "plaintext", "xmp", "dir"] {
            layouts[name] = .block
        }
        for level in 1...6 { layouts["h\(level)"] = .heading(level: level) }
        layouts["ul"] = .list(ordered: false)
        layouts["menu"] = .chrome
        layouts["ol"] = .list(ordered: true)
        layouts["li"] = .listItem
        layouts["table"] = .table
        layouts["tr"] = .tableRow
        layouts["td"] = .tableCell
        layouts["th"] = .tableCell
        for name in ["thead", "tbody", "tfoot", "colgroup", "col"] { layouts[name] = .block }
        layouts["pre"] = .preformatted
        layouts["br"] = .lineBreak
        layouts["title"] = .title
        for name in ["head", "nav", "aside", "button", "form", "select", "option", "optgroup", "datalist", "textarea",
                     "input", "script", "style", "noscript", "template", "iframe", "frame", "frameset", "svg", "math",
                     "canvas", "object", "embed", "applet", "audio", "video", "source", "track", "map", "area",
                     "dialog", "meta", "link", "base"] {
            layouts[name] = .chrome
        }
        return layouts
    }()

    /// Block-level in a table's cell: a table whose cells hold any of these is a page's layout
    /// grid, not a data table.
    var isBlockInsideCell: Bool {
        switch self {
        case .block, .heading, .list, .listItem, .table, .preformatted: true
        case .inline, .tableRow, .tableCell, .lineBreak, .title, .chrome: false
        }
    }
}
