/// Sorts command-line words by a command's declarations, the way swift-argument-parser does:
/// options in any order (`--name value` or `--name=value`), `--` ends options, `-h`/`--help`
/// anywhere before it, and a usage error that names the offending word.
struct ArgumentScanner: Sendable {
    let declarations: [ArgumentDeclaration]
    /// Whether `--version` is an option here (the top-level command of a tool with a version).
    let acceptsVersion: Bool
    /// The usage line the scanner's errors carry.
    let usage: String

    func scan(_ words: [String]) throws(UsageError) -> ParsedWords {
        var parsed = ParsedWords()
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
                continue
            }
            switch word {
            case "--":
                optionsEnded = true
                continue
            case "-h", "--help":
                parsed.wantsHelp = true
                continue
            case "--version" where acceptsVersion:
                parsed.wantsVersion = true
                continue
            default:
                break
            }
            guard word.hasPrefix("--") else { throw error("unknown option '\(word)'") }
            let body = word.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let declaration = declarations.first(where: { $0.name == name && $0.kind != .positional }) else {
                throw error("unknown option '--\(name)'")
            }
            guard let valueName = declaration.valueName else {
                if inlineValue != nil { throw error("--\(name) is a flag and takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < words.count, !(words[index].hasPrefix("--") && words[index].count > 2) {
                value = words[index]
                index += 1
            } else {
                throw error("--\(name) needs a value (\(valueName))")
            }
            guard declaration.isRepeatable || parsed.values[name] == nil else { throw error("--\(name) was given twice") }
            parsed.values[name, default: []].append(value)
        }
        let takesPositionals = declarations.contains { $0.kind == .positional }
        if !takesPositionals, let extra = parsed.positionals.first, !parsed.wantsHelp {
            throw error("unexpected argument '\(extra)'")
        }
        return parsed
    }

    private func error(_ message: String) -> UsageError { UsageError(message, usage: usage) }
}
