/// The usage line and the help text of a command, made from its configuration and its declared
/// arguments, so that what `--help` lists is what the parser accepts.
struct CommandHelp: Sendable {
    let configuration: CommandConfiguration
    let declarations: [ArgumentDeclaration]

    private var options: [ArgumentDeclaration] { declarations.filter { $0.kind != .positional } }
    private var positional: ArgumentDeclaration? { declarations.first { $0.kind == .positional } }

    /// `ask index [--folder DIR] [--corpus FILE.jsonl] …`
    var usage: String {
        let words = [configuration.commandName] + options.map { "[\($0.display)]" } + (positional.map { ["[\($0.name)]"] } ?? [])
        return words.joined(separator: " ")
    }

    var text: String {
        var lines = ["OVERVIEW: \(configuration.abstract)", "", "USAGE: \(usage)"]
        if let positional {
            lines += ["", "ARGUMENTS:", "  \(positional.name)  \(positional.help)"]
        }
        var rows: [(String, String)] = options.map { ($0.display, $0.helpWithDefault) }
        rows.append(("-h, --help", "Show help for this command."))
        if configuration.version != nil { rows.append(("--version", "Show the version.")) }
        lines += ["", "OPTIONS:"] + Self.table(rows)
        if !configuration.subcommands.isEmpty {
            lines += ["", "SUBCOMMANDS:"] + Self.table(configuration.subcommands.map { ($0.name, $0.abstract) })
            lines += ["", "  See '\(configuration.tool) <subcommand> --help' for each one."]
        }
        if !configuration.discussion.isEmpty { lines += [""] + configuration.discussion }
        return lines.joined(separator: "\n")
    }

    /// Two columns, the first padded to its widest entry.
    private static func table(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  " + $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
    }
}
