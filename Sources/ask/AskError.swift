/// A failure while running a command (exit code 1), worded for the person at the terminal:
/// what went wrong and what to do.
struct AskError: Error, Sendable, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
