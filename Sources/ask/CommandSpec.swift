/// What a command accepts: its options, its positional arguments and the help text made from
/// them (one description feeds both the parser and `--help`, so they cannot disagree).
struct CommandSpec: Sendable {
    /// One `--name` option: a flag when `valueName` is nil, otherwise it takes a value; a
    /// repeatable one may be given several times (`--image a.png --image b.png`).
    struct Option: Sendable {
        let name: String
        let valueName: String?
        let help: String
        var isRepeatable = false

        static func flag(_ name: String, _ help: String) -> Option { Option(name: name, valueName: nil, help: help) }
        static func value(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, valueName: valueName, help: help)
        }
        static func repeatable(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, valueName: valueName, help: help, isRepeatable: true)
        }

        var display: String { (valueName.map { "--\(name) \($0)" } ?? "--\(name)") + (isRepeatable ? " ..." : "") }
    }

    /// The command's name as typed ("index"); empty for the top-level question command.
    let name: String
    let abstract: String
    /// The positional argument's name in usage ("QUESTION"), nil when the command takes none.
    let positional: String?
    var positionalHelp = ""
    let options: [Option]
    /// Lines shown after the options (examples, notes).
    var discussion: [String] = []
    /// Subcommands listed in the help (only the top-level command has them).
    var subcommands: [(name: String, abstract: String)] = []

    func option(named name: String) -> Option? { options.first { $0.name == name } }

    var usage: String {
        let words = ["ask", name].filter { !$0.isEmpty } + options.map { "[\($0.display)]" } + (positional.map { ["[\($0)]"] } ?? [])
        return words.joined(separator: " ")
    }

    var help: String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage)"]
        if let positional {
            lines += ["", "ARGUMENTS:", "  \(positional)  \(positionalHelp)"]
        }
        let rows = options.map { ($0.display, $0.help) } + [("-h, --help", "Show help for this command.")]
            + (name.isEmpty ? [("--version", "Show the version.")] : [])
        let width = rows.map(\.0.count).max() ?? 0
        lines += ["", "OPTIONS:"] + rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
        if !subcommands.isEmpty {
            let width = subcommands.map(\.name.count).max() ?? 0
            lines += ["", "SUBCOMMANDS:"] + subcommands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.abstract }
            lines += ["", "  See 'ask <subcommand> --help' for each one."]
        }
        if !discussion.isEmpty { lines += [""] + discussion }
        return lines.joined(separator: "\n")
    }
}
