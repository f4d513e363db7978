extension JSONValue {
    /// JSON as Python's `json.dumps` writes it, and so the `tojson` filter of chat templates:
    /// `", "` and `": "` separators, non-ASCII kept as is; with `indent`, one member per line
    /// indented by that many spaces per level. Tool definitions and calls are written this way
    /// so a model reads them as its own template wrote them in training.
    public func pythonStyleJSON(indent: Int? = nil) -> String {
        var out = ""
        writePythonStyle(to: &out, indent: indent, level: 0)
        return out
    }

    private func writePythonStyle(to out: inout String, indent: Int?, level: Int) {
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "["
            writeMembers(items.indices, to: &out, indent: indent, level: level) { index, out in
                items[index].writePythonStyle(to: &out, indent: indent, level: level + 1)
            }
            out += "]"
        case .object(let object) where !object.isEmpty:
            out += "{"
            let members = Array(object)
            writeMembers(members.indices, to: &out, indent: indent, level: level) { index, out in
                out += JSONValue.quoted(members[index].key) + ": "
                members[index].value.writePythonStyle(to: &out, indent: indent, level: level + 1)
            }
            out += "}"
        default:
            out += jsonString
        }
    }

    private func writeMembers(_ indices: Range<Int>, to out: inout String, indent: Int?, level: Int,
                              write: (Int, inout String) -> Void) {
        let inner = indent.map { "\n" + String(repeating: " ", count: $0 * (level + 1)) } ?? ""
        for index in indices {
            out += index == indices.lowerBound ? inner : (indent == nil ? ", " : "," + inner)
            write(index, &out)
        }
        out += indent.map { "\n" + String(repeating: " ", count: $0 * level) } ?? ""
    }
}
