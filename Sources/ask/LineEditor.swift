import CEditLine
import Foundation

/// The interactive prompt's line input: libedit's line editing (arrows, Ctrl-A/E, search) and a
/// persistent history in `$XDG_DATA_HOME/lantern/history`, through libedit's readline interface.
/// When stdin is not a terminal it reads plain lines, so questions can be piped in.
///
/// The only file of `ask` that touches C pointers; libedit keeps global state, so one editor
/// is used from one task at a time.
final class LineEditor {
    private let historyFile: URL?
    private let isTerminal: Bool

    init(historyFile: URL?) {
        self.historyFile = historyFile
        self.isTerminal = Terminal.standardInputIsTerminal
        guard isTerminal else { return }
        using_history()
        stifle_history(1000)
        if let historyFile {
            try? FileManager.default.createDirectory(at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = read_history(historyFile.path)
        }
    }

    /// The next line without its newline; nil at end of input (Ctrl-D).
    func readLine(prompt: String) -> String? {
        guard isTerminal else {
            return Swift.readLine(strippingNewline: true)
        }
        guard let pointer = readline(prompt) else { return nil }
        defer { free(pointer) }
        let line = String(cString: pointer)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            _ = add_history(line)
            if let historyFile { _ = write_history(historyFile.path) }
        }
        return line
    }

    /// `$XDG_DATA_HOME/lantern/history`, or `~/.local/share/lantern/history`.
    static var defaultHistoryFile: URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("lantern/history")
    }
}
