import Foundation

/// The parts of a page that are not its text: the site's navigation and furniture, controls,
/// hidden elements, scripts and styles. An element is chrome when
/// - its kind never holds running text (`HTMLLayout.chrome`: `nav`, `aside`, `menu`, `button`,
///   `form`, `select`, `script`, `style`, `noscript`, `template`, `iframe`, `svg`, media, …),
///   or it is the `<title>` (the item's title, kept apart from the text);
/// - it is a `footer`, or a `header` outside an `article`, `main` or `section` (inside one, the
///   header is that part's own: its heading and byline, which are content);
/// - its `role` is a landmark or widget that is not running text: navigation, banner,
///   contentinfo, search, complementary, menu, menubar, toolbar, dialog, alertdialog, tooltip;
/// - it is hidden: the `hidden` attribute, `aria-hidden="true"`, or an inline style with
///   `display: none` or `visibility: hidden`;
/// - it is a link within the page that skips ("Skip to content", "Jump to main"; not in a
///   heading) or a permalink anchor showing only a symbol (¶, §, #, 🔗);
/// - its class or id names a theme or colour-scheme picker, a cookie or consent banner, or a
///   skip link (not on `html`, `body`, `main` or `article`, whose classes describe the page).
/// Everything inside chrome is chrome too.
enum PageChrome {
    /// For each node of `tree`, whether it is chrome or inside chrome.
    static func droppedNodes(in tree: HTMLTree) -> [Bool] {
        var dropped = [Bool](repeating: false, count: tree.nodes.count)
        var index = 0
        while index < tree.nodes.count {
            let node = tree.nodes[index]
            if !node.isText, isChrome(index, in: tree) {
                for inner in index..<node.end { dropped[inner] = true }
                index = node.end
            } else {
                index += 1
            }
        }
        return dropped
    }

    static let droppedRoles: Set<String> = ["navigation", "banner", "contentinfo", "search", "complementary", "menu",
                                            "menubar", "toolbar", "dialog", "alertdialog", "tooltip"]

    /// Whether the element at `index` itself is chrome (its ancestors are not looked at).
    static func isChrome(_ index: Int, in tree: HTMLTree) -> Bool {
        let node = tree.nodes[index]
        switch node.layout {
        case .chrome, .title: return true
        default: break
        }
        if node.name == "footer" { return true }
        if node.name == "header", !tree.hasAncestor(of: index, named: ["article", "main", "section"]) { return true }
        if node.attributes.isEmpty { return false }
        if let role = node.role, droppedRoles.contains(role) { return true }
        if isHidden(node) { return true }
        if node.name == "a", let href = node.attribute("href"), href.hasPrefix("#"),
           isSkipOrPermalink(tree.rawText(of: index), inHeading: tree.hasAncestor(of: index, named: headings)) {
            return true
        }
        // A whole page is never dropped for a class on its root: `<body class="theme-switcher">`.
        if ["html", "body", "main", "article"].contains(node.name) { return false }
        return namesChrome(node.classAndIdentifier)
    }

    static func isHidden(_ node: HTMLNode) -> Bool {
        if node.attribute("hidden") != nil { return true }
        if node.attribute("aria-hidden")?.lowercased().trimmingCharacters(in: .whitespaces) == "true" { return true }
        if let style = node.attribute("style") {
            let compact = ASCIIMatch.lowercased(style).filter { !($0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D)) }
            if ASCIIMatch.containsAny(compact[...], hidingStyles) { return true }
        }
        return false
    }

    private static let headings: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]

    /// The text of an in-page link that is a permalink's symbol, or outside a heading (where a
    /// title such as "Skip lists" can link to itself) one that skips to the content: "Skip to
    /// content", "Skip navigation", "Jump to main".
    static func isSkipOrPermalink(_ text: String, inHeading: Bool) -> Bool {
        let words = text.lowercased().split(whereSeparator: { $0.isWhitespace })
        guard let first = words.first else { return false }
        if words.count == 1, ["¶", "§", "#", "🔗", "⚓"].contains(String(first)) { return true }
        guard !inHeading, words.count >= 2 else { return false }
        let second = words[1]
        return (first == "skip" && ["to", "navigation", "nav", "content", "main"].contains(String(second))) || (first == "jump" && second == "to")
    }

    /// Whether a class-and-id string names a theme picker, a cookie banner or a skip link.
    static func namesChrome(_ names: [UInt8]) -> Bool {
        guard !names.isEmpty else { return false }
        for token in names.split(whereSeparator: { !isTokenByte($0) }) {
            if ASCIIMatch.containsAny(token, themeWords), ASCIIMatch.containsAny(token, pickerWords) { return true }
            if ASCIIMatch.containsAny(token, darkModeWords) { return true }
            if ASCIIMatch.containsAny(token, consentWords), token.elementsEqual("gdpr".utf8) || ASCIIMatch.containsAny(token, bannerWords) {
                return true
            }
            if ASCIIMatch.containsAny(token, skipWords) { return true }
        }
        return false
    }

    /// Letters, digits, "-" and "_" (and any byte of a non-ASCII character) make up a token.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
    }

    private static func words(_ list: [String]) -> [[UInt8]] { list.map { Array($0.utf8) } }
    private static let hidingStyles = words(["display:none", "visibility:hidden"])
    private static let themeWords = words(["theme", "color-mode", "colour-mode", "color-scheme", "colour-scheme", "colormode", "colorscheme"])
    private static let pickerWords = words(["toggle", "switch", "picker", "popup", "list", "menu", "select", "chooser", "button"])
    private static let darkModeWords = words(["dark-mode", "darkmode", "dark_mode", "light-dark"])
    private static let consentWords = words(["cookie", "consent", "gdpr"])
    private static let bannerWords = words(["banner", "notice", "bar", "popup", "modal", "consent", "dialog", "law", "message", "overlay"])
    private static let skipWords = words(["skip-link", "skiplink", "skip-to", "skip_to", "skip-nav", "skipnav"])
}
