/// Finds the part of a page that holds its running text, leaving the site around it out:
/// 1. the page's `<main>` (or `role="main"`) when it holds at least a fifth of the page's
///    visible text, else its `<article>`s under the same rule (several: the nearest element
///    holding them all);
/// 2. else the block a readability-style score picks: every paragraph-like block (`p`, `pre`,
///    `td`, `blockquote`, `dd`, or a `div`/`section` with text of its own) of at least 20 visible
///    bytes scores 1, plus 1 per comma, plus 1 per 100 bytes up to 3, for its parent and half of
///    that for its grandparent; each candidate starts from its kind (a `div` +5, a list or a
///    heading below zero) and its class and id (`content`, `article`, `post`… +25; `sidebar`,
///    `comment`, `footer`, `related`… -25) and is scaled by 1 - its link density (the share of
///    its text inside links). The best candidate is taken with those of its siblings that
///    score at least a fifth of it, the paragraphs among them that read as text, and the
///    headings just before it;
/// 3. else the whole `<body>`.
/// Chrome (`PageChrome`) counts nowhere: it is left out before anything is measured.
struct MainContentFinder {
    let tree: HTMLTree
    let dropped: [Bool]
    /// Each node's visible text in UTF-8 bytes that are not whitespace, chrome left out.
    private(set) var textLength: [Int]
    /// The part of `textLength` inside links.
    private(set) var linkLength: [Int]
    /// The commas in each node's visible text.
    private(set) var commas: [Int]

    /// A landmark is taken when it holds at least this share of the page's visible text.
    static let landmarkShare = 0.2
    /// A paragraph-like block counts from this many visible bytes.
    static let paragraphMinimum = 20

    init(tree: HTMLTree, dropped: [Bool]) {
        self.tree = tree
        self.dropped = dropped
        let count = tree.nodes.count
        var textLength = [Int](repeating: 0, count: count)
        var linkLength = [Int](repeating: 0, count: count)
        var commas = [Int](repeating: 0, count: count)
        // Descendants come after their ancestors, so one pass backwards sums every subtree.
        for index in stride(from: count - 1, through: 0, by: -1) where !dropped[index] {
            let node = tree.nodes[index]
            if node.isText {
                for byte in node.text.utf8 where !(byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)) {
                    textLength[index] += 1
                    if byte == UInt8(ascii: ",") { commas[index] += 1 }
                }
            } else if node.name == "a" {
                linkLength[index] = textLength[index]
            }
            if node.parent >= 0 {
                textLength[node.parent] += textLength[index]
                linkLength[node.parent] += linkLength[index]
                commas[node.parent] += commas[index]
            }
        }
        self.textLength = textLength
        self.linkLength = linkLength
        self.commas = commas
    }

    /// The elements whose subtrees are the page's content, in document order.
    func roots() -> [Int] {
        guard !tree.nodes.isEmpty else { return [] }
        let body = tree.first(named: "body").flatMap { dropped[$0] ? nil : $0 }
        let pageText = body.map { textLength[$0] } ?? textLength.indices.filter { tree.nodes[$0].parent < 0 }.reduce(0) { $0 + textLength[$1] }
        guard pageText > 0 else { return [] }
        let needed = Int((Double(pageText) * Self.landmarkShare).rounded(.up))
        if let main = landmark(where: { $0.name == "main" || $0.role == "main" }), textLength[main] >= needed {
            return [main]
        }
        let articles = outermost(tree.nodes.indices.filter { tree.nodes[$0].name == "article" && !dropped[$0] && textLength[$0] > 0 })
        if let first = articles.first {
            let holder = articles.dropFirst().reduce(first) { commonAncestor($0, $1) ?? $0 }
            if textLength[holder] >= needed { return [holder] }
        }
        if let chosen = densest() { return chosen }
        return body.map { [$0] } ?? tree.nodes.indices.filter { tree.nodes[$0].parent < 0 }
    }

    /// The visible element matching `test` with the most text.
    private func landmark(where test: (HTMLNode) -> Bool) -> Int? {
        tree.nodes.indices.filter { !dropped[$0] && !tree.nodes[$0].isText && test(tree.nodes[$0]) }
            .max { textLength[$0] < textLength[$1] }
    }

    /// The elements of `indices` (in document order) that are not inside another of them.
    private func outermost(_ indices: [Int]) -> [Int] {
        var kept: [Int] = []
        for index in indices where kept.last.map({ index >= tree.nodes[$0].end }) ?? true { kept.append(index) }
        return kept
    }

    private func commonAncestor(_ first: Int, _ second: Int) -> Int? {
        var ancestor = first
        while ancestor >= 0 {
            if second >= ancestor, second < tree.nodes[ancestor].end { return ancestor }
            ancestor = tree.nodes[ancestor].parent
        }
        return nil
    }

    private func linkDensity(_ index: Int) -> Double {
        textLength[index] == 0 ? 0 : Double(linkLength[index]) / Double(textLength[index])
    }

    /// The readability-style choice (rule 2), or nil when no block reads as a paragraph.
    private func densest() -> [Int]? {
        var score: [Int: Double] = [:]
        func add(_ points: Double, to index: Int) {
            guard index >= 0, !dropped[index] else { return }
            score[index, default: startingScore(index)] += points
        }
        for index in tree.nodes.indices where !dropped[index] && isParagraph(index) && textLength[index] >= Self.paragraphMinimum {
            let points = 1 + Double(commas[index]) + Double(min(textLength[index] / 100, 3))
            let parent = tree.nodes[index].parent
            add(points, to: parent)
            if parent >= 0 { add(points / 2, to: tree.nodes[parent].parent) }
        }
        var final: [Int: Double] = [:]
        for (index, points) in score { final[index] = points * (1 - linkDensity(index)) }
        guard let (top, topScore) = final.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) else { return nil }
        let parent = tree.nodes[top].parent
        guard parent >= 0 else { return [top] }
        let threshold = max(10, topScore * 0.2)
        var chosen: [Int] = []
        var headings: [Int] = []
        var passedTop = false
        for sibling in tree.children(of: parent) where !dropped[sibling] {
            let node = tree.nodes[sibling]
            if node.isText {
                if !passedTop, textLength[sibling] > 0 { headings.removeAll() }
                continue
            }
            if sibling == top {
                chosen += headings
                chosen.append(sibling)
                passedTop = true
                continue
            }
            if case .heading = node.layout, !passedTop {
                headings.append(sibling)
                continue
            }
            if !passedTop, textLength[sibling] > 0 { headings.removeAll() }
            if let siblingScore = final[sibling], siblingScore >= threshold {
                chosen.append(sibling)
            } else if node.name == "p", readsAsText(sibling) {
                chosen.append(sibling)
            }
        }
        return chosen.sorted()
    }

    /// A `p` that belongs with the chosen block: long with few links, or a short sentence with none.
    private func readsAsText(_ index: Int) -> Bool {
        let length = textLength[index]
        if length > 80 { return linkDensity(index) < 0.25 }
        return length > 0 && linkLength[index] == 0 && ASCIIMatch.contains(Array(tree.rawText(of: index).utf8)[...], Array(". ".utf8))
    }

    private func isParagraph(_ index: Int) -> Bool {
        let node = tree.nodes[index]
        switch node.name {
        case "p", "pre", "td", "blockquote", "dd": return true
        case "div", "section": return ownTextLength(index) >= Self.paragraphMinimum
        default: return false
        }
    }

    /// The visible text of an element's own text children (not of its child elements).
    private func ownTextLength(_ index: Int) -> Int {
        tree.children(of: index).reduce(0) { $0 + (tree.nodes[$1].isText ? textLength[$1] : 0) }
    }

    /// Readability's starting points: by kind, then by class and id.
    private func startingScore(_ index: Int) -> Double {
        let node = tree.nodes[index]
        var points: Double
        switch node.name {
        case "div": points = 5
        case "pre", "td", "blockquote": points = 3
        case "address", "ol", "ul", "dl", "dd", "dt", "li", "form": points = -3
        case "h1", "h2", "h3", "h4", "h5", "h6", "th": points = -5
        default: points = 0
        }
        let names = node.classAndIdentifier[...]
        if ASCIIMatch.containsAny(names, Self.negativeNames) { points -= 25 }
        if ASCIIMatch.containsAny(names, Self.positiveNames) { points += 25 }
        return points
    }

    static let positiveNames = ["article", "body", "content", "entry", "main", "page", "post", "text", "blog", "story"].map { Array($0.utf8) }
    static let negativeNames = ["banner", "combx", "comment", "com-", "contact", "foot", "footnote", "masthead", "media", "meta",
                                "promo", "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor",
                                "shopping", "tags", "tool", "widget", "nav", "menu", "breadcrumb"].map { Array($0.utf8) }
}
