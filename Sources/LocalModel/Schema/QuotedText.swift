/// Writes text as a double-quoted string literal in the C-like syntax JSON and GBNF share:
/// `"`, `\`, newline, return and tab escaped with a backslash, every other control character
/// (and DEL) spelled by the language's own `controlEscape`, everything else as it is.
enum QuotedText {
    static func write(_ text: String, to out: inout String, controlEscape: (UInt32) -> String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { out += controlEscape(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        out += "\""
    }
}
