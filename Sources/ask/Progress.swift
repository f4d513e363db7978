import Foundation
import Lantern
import Synchronization

/// A stage's progress on stderr. On a terminal, one line redrawn in place: with a total, a bar,
/// the count, the rate and the time left; without one (a model load, a folder walk of unknown
/// size), a spinner, the count so far and the time. Otherwise (a log, a pipe) plain lines, for
/// stages that count something and last: nothing for the first `plainLineDelay`, so quick
/// stages stay quiet, then a line when the stage is under way, one every `plainLineInterval`,
/// and one when it ends.
final class Progress: ProgressStage {
    let label: String
    /// Whether stderr is a terminal (the line is redrawn) rather than a log (plain lines).
    let drawsInPlace: Bool
    private let state: Mutex<State>

    private struct State {
        var total: Int?
        var completed = 0
        var detail = ""
        var lastDraw = ContinuousClock.now - .seconds(1)
        var frame = 0
        var finished = false
        /// When the last plain line was written; nil before the first.
        var lastPlainLine: ContinuousClock.Instant?
    }

    private let started = ContinuousClock.now

    /// A plain-line stage says nothing until it has run this long.
    static let plainLineDelay: Duration = .seconds(3)
    /// Plain lines of a stage under way come at most this often.
    static let plainLineInterval: Duration = .seconds(10)

    init(_ label: String, total: Int? = nil, drawsInPlace: Bool = Terminal.standardErrorIsTerminal) {
        self.label = label
        self.drawsInPlace = drawsInPlace
        self.state = Mutex(State(total: total))
    }

    /// Records progress (and the total, when the stage learns it as it starts); redraws at most
    /// ten times a second (plain lines: see the type).
    func update(completed: Int, total: Int? = nil, detail: String = "") {
        state.withLock { state in
            state.completed = completed
            if let total { state.total = total }
            state.detail = detail
            let now = ContinuousClock.now
            guard !state.finished else { return }
            if drawsInPlace {
                guard now - state.lastDraw >= .milliseconds(100) else { return }
                state.lastDraw = now
                state.frame += 1
                Terminal.error("\r" + line(state) + "\u{1B}[K")
            } else if state.total != nil || completed > 0, now - started >= Self.plainLineDelay,
                      state.lastPlainLine.map({ now - $0 >= Self.plainLineInterval }) ?? true {
                Terminal.error("\(label): \(state.lastPlainLine == nil ? "under way, " : "")\(counts(state))\n")
                state.lastPlainLine = now
            }
        }
    }

    /// Clears the line; a stage that wrote plain lines writes its last one.
    func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            if drawsInPlace {
                Terminal.error("\r\u{1B}[K")
            } else if state.lastPlainLine != nil {
                Terminal.error("\(label): done, \(counts(state)) in \(Self.format(seconds: elapsedSeconds))\n")
            }
        }
    }

    private var elapsedSeconds: Double {
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// "120 of 2,689 items, 4.1 a second, about 10m 26s left" (with a total), else the count.
    private func counts(_ state: State) -> String {
        var text = state.total.map { "\(state.completed.formatted()) of \($0.formatted())" } ?? (state.completed > 0 ? state.completed.formatted() : "")
        if !state.detail.isEmpty { text += (text.isEmpty ? "" : " ") + state.detail }
        if let estimate = estimate(state) { text += ", " + estimate }
        return text
    }

    /// The rate so far and the time left at that rate, once anything is done.
    private func estimate(_ state: State) -> String? {
        guard let total = state.total, state.completed > 0 else { return nil }
        let rate = Double(state.completed) / max(elapsedSeconds, 0.001)
        let left = Double(max(0, total - state.completed)) / rate
        return String(format: "%.1f a second", rate) + (state.completed < total ? ", about \(Self.format(seconds: left)) left" : "")
    }

    /// "42s", "10m 26s", "3h 50m".
    static func format(seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        if whole < 60 { return "\(whole)s" }
        if whole < 3_600 { return "\(whole / 60)m \(whole % 60)s" }
        return "\(whole / 3_600)h \(whole % 3_600 / 60)m"
    }

    private func line(_ state: State) -> String {
        let seconds = String(format: "%.1fs", elapsedSeconds)
        let columns = Self.columns()
        var text: String
        if let total = state.total, total > 0 {
            let fraction = min(1, Double(state.completed) / Double(total))
            let width = max(10, min(30, columns - label.count - 60))
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            text = "\(label) \(bar) \(Int(fraction * 100))% \(counts(state)) \(seconds)"
        } else {
            let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"][state.frame % 10]
            text = "\(spinner) \(label)" + (state.completed > 0 ? " \(state.completed)" : "") + " \(seconds)"
            if !state.detail.isEmpty { text += " " + state.detail }
        }
        return String(text.prefix(max(20, columns - 1)))
    }

    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
