/// Parses command-line words against a `CommandSpec`, the way swift-argument-parser does:
/// options in any order (`--name value` or `--name=value`), `--` ends options, `-h`/`--help`
/// anywhere before it, and a usage error that names the offending word.
///
/// Hand-written on purpose: Lantern has no package dependencies.
struct ArgumentParser: Sendable {
    let spec: CommandSpec

    func parse(_ words: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
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
            case "--version" where spec.name.isEmpty:
                parsed.wantsVersion = true
                continue
            default:
                break
            }
            guard word.hasPrefix("--") else {
                throw UsageError("unknown option '\(word)'", spec: spec)
            }
            let body = word.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            guard let option = spec.option(named: name) else {
                throw UsageError("unknown option '--\(name)'", spec: spec)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw UsageError("--\(name) is a flag and takes no value", spec: spec) }
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
                throw UsageError("--\(name) needs a value (\(valueName))", spec: spec)
            }
            if option.isRepeatable {
                parsed.repeatedValues[name, default: []].append(value)
                continue
            }
            guard parsed.values[name] == nil else {
                throw UsageError("--\(name) was given twice", spec: spec)
            }
            parsed.values[name] = value
        }
        if spec.positional == nil, let extra = parsed.positionals.first, !parsed.wantsHelp {
            throw UsageError("unexpected argument '\(extra)'", spec: spec)
        }
        return parsed
    }
}
