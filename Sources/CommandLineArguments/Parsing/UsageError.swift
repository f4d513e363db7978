/// A mistake on the command line (exit code 2): the message names the option or word and what
/// it needs; `usage`, when set, is the command's usage line, printed after it.
package struct UsageError: Error, Sendable, CustomStringConvertible {
    package let message: String
    package let usage: String?

    package init(_ message: String, usage: String? = nil) {
        self.message = message
        self.usage = usage
    }

    package var description: String { message }

    /// What a tool prints on stderr for the mistake: `ask: error: …`, the usage line when there
    /// is one, and where to read more (`See 'ask index --help'.`).
    package func report(for configuration: CommandConfiguration) -> String {
        "\(configuration.tool): error: \(message)\n" + (usage.map { "Usage: \($0)\n" } ?? "")
            + "See '\(configuration.commandName) --help'.\n"
    }
}
