/// What a command says about itself beyond its options: the tool and subcommand names, a one-line
/// abstract, lines shown after the options, and, for a tool's top-level command, its subcommands
/// and version (which makes `--version` an option).
package struct CommandConfiguration: Sendable {
    package struct Subcommand: Sendable {
        package let name: String
        package let abstract: String

        package init(name: String, abstract: String) {
            self.name = name
            self.abstract = abstract
        }
    }

    /// The executable's name ("ask").
    package let tool: String
    /// The subcommand as typed ("index"); empty for the tool's top-level command.
    package let name: String
    package let abstract: String
    /// Lines shown after the options (examples, notes).
    package let discussion: [String]
    /// Subcommands listed in the help (only a top-level command has them).
    package let subcommands: [Subcommand]
    /// What `--version` prints; nil when the command has no `--version`.
    package let version: String?

    package init(tool: String, name: String = "", abstract: String, discussion: [String] = [], subcommands: [Subcommand] = [],
                 version: String? = nil) {
        self.tool = tool
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.subcommands = subcommands
        self.version = version
    }

    /// The command as typed: "ask", "ask index".
    package var commandName: String { name.isEmpty ? tool : tool + " " + name }
}
