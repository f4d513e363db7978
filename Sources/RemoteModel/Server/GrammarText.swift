import Foundation
import LocalModel

/// The session's grammar as a server takes it.
enum GrammarText {
    /// The GBNF with its start rule named `root`, where servers start a grammar: a grammar
    /// rooted elsewhere gets a `root` rule that is its start rule.
    static func rootedAtRoot(_ grammar: GrammarConstraint) -> String {
        guard grammar.root != "root" else { return grammar.gbnf }
        let definesRoot = grammar.gbnf.split(separator: "\n").contains { line in
            let words = line.split(separator: " ", maxSplits: 2)
            return words.count >= 2 && words[0] == "root" && words[1] == "::="
        }
        return definesRoot ? grammar.gbnf : "root ::= \(grammar.root)\n" + grammar.gbnf
    }

    /// The GBNF of a grammar the session starts after its trigger (Qwen3's answer after
    /// `</think>`), as a grammar that starts at the trigger: a `root` that writes one of
    /// `triggers` (a whitespace run in one standing for any run), any whitespace, then the
    /// session's grammar, whose own `root` is renamed. Servers start a lazy grammar at its
    /// trigger and feed it the trigger's text; this grammar then constrains exactly what the
    /// session's constrains after it.
    static func startingAtTrigger(_ grammar: GrammarConstraint, triggers: [String]) -> String {
        let inner = "lantern-after-trigger"
        let body = renamingRule("root", to: inner, in: rootedAtRoot(grammar))
        let words = triggers.map(literal).joined(separator: " | ")
        return "root ::= (\(words)) \(whitespace) \(inner)\n" + body
    }

    /// GBNF's whitespace run, none included.
    private static let whitespace = #"[ \t\n\r]*"#

    /// A GBNF expression for `trigger`: its text quoted, each whitespace run any run.
    static func literal(_ trigger: String) -> String {
        var parts: [String] = []
        var current = ""
        var inSpace = false
        for character in trigger {
            if character.isWhitespace {
                if !inSpace {
                    if !current.isEmpty { parts.append(quoted(current)) }
                    current = ""
                    parts.append(whitespace)
                }
                inSpace = true
            } else {
                inSpace = false
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(quoted(current)) }
        return parts.isEmpty ? "\"\"" : parts.joined(separator: " ")
    }

    /// `text` as a GBNF string literal.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `gbnf` with the rule `name` called `replacement`, in its definition and every reference:
    /// each identifier outside string literals, character classes and comments is compared.
    static func renamingRule(_ name: String, to replacement: String, in gbnf: String) -> String {
        enum Mode { case rules, literal, characterClass, comment }
        var mode = Mode.rules
        var escaped = false
        var output = ""
        var word = ""
        func endWord() {
            output += word == name ? replacement : word
            word = ""
        }
        for character in gbnf {
            switch mode {
            case .rules:
                if character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_") {
                    word.append(character)
                    continue
                }
                endWord()
                mode = switch character {
                case "\"": .literal
                case "[": .characterClass
                case "#": .comment
                default: .rules
                }
                output.append(character)
            case .literal, .characterClass:
                output.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == (mode == .literal ? "\"" : "]") {
                    mode = .rules
                }
            case .comment:
                output.append(character)
                if character.isNewline { mode = .rules }
            }
        }
        endWord()
        return output
    }

    /// An ECMAScript regular expression (llama.cpp's `std::regex`) that finds `trigger` as the
    /// session's lazy grammars do: literally, except that a whitespace run stands for any
    /// whitespace run, none included.
    static func pattern(matching trigger: String) -> String {
        var pattern = ""
        var inSpace = false
        for character in trigger {
            if character.isWhitespace {
                if !inSpace { pattern += #"\s*"# }
                inSpace = true
                continue
            }
            inSpace = false
            pattern += #"\^$.|?*+()[]{}/"#.contains(character) ? "\\\(character)" : String(character)
        }
        return pattern
    }
}
