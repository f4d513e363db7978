import Foundation

/// Where `ask` writes: answers and results to stdout, progress and errors to stderr, unbuffered
/// so a streamed answer appears token by token.
enum Terminal {
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    static func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Dimmed text for the trace when stdout is a terminal; plain otherwise.
    static func dim(_ text: String) -> String {
        standardOutputIsTerminal ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }
}
