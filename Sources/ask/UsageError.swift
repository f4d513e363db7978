/// A mistake on the command line (exit code 2): the message names the flag or word, and the
/// usage line of the command follows it.
struct UsageError: Error, Sendable, CustomStringConvertible {
    let message: String
    let usage: String?

    init(_ message: String, spec: CommandSpec? = nil) {
        self.message = message
        self.usage = spec.map(\.usage)
    }

    var description: String { message }
}
