import Foundation
import Synchronization

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (piped or redirected
/// output stays quiet). With a total it shows a bar and a percentage; without one (a model
/// load, a folder walk of unknown size) it shows a spinner, the count so far and the time.
final class Progress: Sendable {
    let label: String
    let total: Int?
    let isEnabled: Bool
    private let state: Mutex<State>

    private struct State {
        var completed = 0
        var detail = ""
        var lastDraw = ContinuousClock.now - .seconds(1)
        var frame = 0
        var finished = false
    }

    private let started = ContinuousClock.now

    init(_ label: String, total: Int? = nil, enabled: Bool = Terminal.standardErrorIsTerminal) {
        self.label = label
        self.total = total
        self.isEnabled = enabled
        self.state = Mutex(State())
    }

    /// Records progress; redraws at most ten times a second.
    func update(completed: Int, detail: String = "") {
        guard isEnabled else { return }
        state.withLock { state in
            state.completed = completed
            state.detail = detail
            let now = ContinuousClock.now
            guard !state.finished, now - state.lastDraw >= .milliseconds(100) else { return }
            state.lastDraw = now
            state.frame += 1
            Terminal.error("\r" + line(state) + "\u{1B}[K")
        }
    }

    /// Clears the bar.
    func finish() {
        guard isEnabled else { return }
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            Terminal.error("\r\u{1B}[K")
        }
    }

    /// Runs `operation` with a spinner that ticks while it works (for work with no progress
    /// callback, such as llama.cpp mapping a model).
    static func spinning<T: Sendable>(_ label: String, _ operation: @Sendable @escaping () throws -> T) async throws -> T {
        let progress = Progress(label)
        let ticker = Task {
            while !Task.isCancelled {
                progress.update(completed: 0)
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer {
            ticker.cancel()
            progress.finish()
        }
        return try await Task.detached(operation: operation).value
    }

    private func line(_ state: State) -> String {
        let elapsed = ContinuousClock.now - started
        let seconds = String(format: "%.1fs", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        let columns = Self.columns()
        var text: String
        if let total, total > 0 {
            let fraction = min(1, Double(state.completed) / Double(total))
            let width = max(10, min(30, columns - label.count - 30))
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            text = "\(label) \(bar) \(Int(fraction * 100))% \(state.completed)/\(total) \(seconds)"
        } else {
            let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"][state.frame % 10]
            text = "\(spinner) \(label)" + (state.completed > 0 ? " \(state.completed)" : "") + " \(seconds)"
        }
        if !state.detail.isEmpty { text += " " + state.detail }
        return String(text.prefix(max(20, columns - 1)))
    }

    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
