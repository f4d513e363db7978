/// A parsed HTML page as plain Swift values: its nodes in document order, each element
/// followed by its descendants (`HTMLNode.end`), so a subtree is a range of indices and the
/// tree is walked without recursion however deep the markup nests.
struct HTMLTree: Sendable {
    var nodes: [HTMLNode] = []

    /// The indices of a node's children, in order.
    func children(of index: Int) -> ChildIndices {
        ChildIndices(nodes: nodes, position: index + 1, end: nodes[index].end)
    }

    struct ChildIndices: Sequence, IteratorProtocol {
        let nodes: [HTMLNode]
        var position: Int
        let end: Int

        mutating func next() -> Int? {
            guard position < end else { return nil }
            defer { position = nodes[position].end }
            return position
        }
    }

    /// The text of a node's subtree, concatenated as it stands in the source (no layout).
    func rawText(of index: Int) -> String {
        var text = ""
        for node in nodes[index..<nodes[index].end] where node.isText { text += node.text }
        return text
    }

    /// The first element named `name`, if any.
    func first(named name: String) -> Int? {
        nodes.firstIndex { $0.name == name }
    }

    /// Whether any ancestor of `index` is named one of `names`.
    func hasAncestor(of index: Int, named names: Set<String>) -> Bool {
        var parent = nodes[index].parent
        while parent >= 0 {
            if names.contains(nodes[parent].name) { return true }
            parent = nodes[parent].parent
        }
        return false
    }
}
