/// One declared argument as the scanner and the help see it, whatever the type of its value.
struct ArgumentDeclaration: Sendable {
    enum Kind: Sendable, Equatable {
        /// `--name`, true when present.
        case flag
        /// `--name VALUE` or `--name=VALUE`; a repeatable one may be given several times.
        case option(valueName: String, isRepeatable: Bool)
        /// The words that are no option, shown in usage under `name` ("QUESTION").
        case positional
    }

    let name: String
    let kind: Kind
    let help: String
    /// The default as help shows it; nil when there is none worth showing (an absent value).
    var defaultText: String? = nil

    /// The option as usage and help show it: `--model FILE.gguf`, `--image FILE[:label] ...`, `--think`.
    var display: String {
        switch kind {
        case .flag: "--\(name)"
        case .option(let valueName, let isRepeatable): "--\(name) \(valueName)" + (isRepeatable ? " ..." : "")
        case .positional: name
        }
    }

    /// The help with the default appended ("How results read (default: structured)."), so the
    /// default shown is always the one declared.
    var helpWithDefault: String {
        guard let defaultText else { return help }
        let note = " (default: \(defaultText))"
        return help.hasSuffix(".") ? String(help.dropLast()) + note + "." : help + note
    }

    /// The value name when this takes a value, else nil.
    var valueName: String? {
        if case .option(let valueName, _) = kind { return valueName }
        return nil
    }

    var isRepeatable: Bool {
        if case .option(_, true) = kind { return true }
        return false
    }
}
