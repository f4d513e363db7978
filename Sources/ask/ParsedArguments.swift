/// The result of parsing one command's arguments: option values, flags and positionals.
struct ParsedArguments: Sendable {
    var values: [String: String] = [:]
    /// The values of repeatable options, in the order given.
    var repeatedValues: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// `--help` or `-h` appeared before `--`.
    var wantsHelp = false
    /// `--version` appeared before `--`.
    var wantsVersion = false

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// Every value a repeatable option was given, in order; empty when it was not given.
    func allValues(_ name: String) -> [String] { repeatedValues[name] ?? [] }

    /// An option's value as a whole number of at least `minimum`, or a usage error naming the
    /// option and the smallest value it takes.
    func integer(_ name: String, atLeast minimum: Int = 0) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), number >= minimum else {
            throw UsageError("--\(name) needs a whole number of \(minimum) or more, not '\(text)'")
        }
        return number
    }

    /// An option's value that must be one of `choices`.
    func choice(_ name: String, in choices: [String]) throws(UsageError) -> String? {
        guard let text = values[name] else { return nil }
        guard choices.contains(text) else {
            throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        return text
    }
}
