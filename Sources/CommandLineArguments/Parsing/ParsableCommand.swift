import Foundation

/// A command: its options (the properties, as for `ParsableArguments`) and its configuration.
/// `parse` turns the words after the command's name into the command with every property set,
/// or a usage error; `help` and `usage` are made from the same declarations.
package protocol ParsableCommand: ParsableArguments {
    static var configuration: CommandConfiguration { get }
}

/// What the command line asked for: the command to run, or its help, or the version.
package enum ParsedCommandLine<Command: ParsableCommand>: Sendable {
    case command(Command)
    case help
    case version
}

extension ParsableCommand {
    /// Scans `words` by the declarations, then builds the command with each property converted
    /// from its words. Help and version win over conversion errors, as they do over a missing
    /// question; the first word that is no value of its option's type is the error.
    package static func parse(_ words: [String]) throws(UsageError) -> ParsedCommandLine<Self> {
        let help = commandHelp
        let scanner = ArgumentScanner(declarations: help.declarations, acceptsVersion: configuration.version != nil, usage: help.usage)
        let parsed = try scanner.scan(words)
        if parsed.wantsHelp { return .help }
        if parsed.wantsVersion { return .version }
        let command = ParsedWords.$current.withValue(parsed) { Self() }
        if let failure = command.failures.first { throw failure }
        return .command(command)
    }

    /// For a tool that is one command (`eval`, `bench`): the parsed command, or the process
    /// ends, with 0 after printing the help or version, or 2 after printing the usage error.
    package static func parseOrExit(_ words: [String] = Array(CommandLine.arguments.dropFirst())) -> Self {
        do {
            switch try parse(words) {
            case .command(let command):
                return command
            case .help:
                print(help)
            case .version:
                print(configuration.version ?? "")
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data(error.report(for: configuration).utf8))
            exit(2)
        }
    }

    /// The help text `--help` prints.
    package static var help: String { commandHelp.text }

    /// The usage line (`ask index [--folder DIR] …`) that usage errors carry.
    package static var usage: String { commandHelp.usage }

    /// A usage error about this command that carries its usage line.
    package static func usageError(_ message: String) -> UsageError { UsageError(message, usage: usage) }

    private static var commandHelp: CommandHelp { CommandHelp(configuration: configuration, declarations: Self().declarations) }
}
