import Dispatch
import Lantern
import Synchronization

/// Carries an answer from the task that generates it to the connection's thread that writes
/// it. Each text extends the one before (`AnswerEvent.text`), so only the latest is kept: a
/// slow client gets the text in fewer, larger pieces and the memory held stays one answer.
final class AnswerChannel: Sendable {
    /// What the writer has not taken yet.
    struct Update: Sendable {
        /// The answer so far, when it changed.
        var text: String?
        /// The report or the failure, once the answer is over.
        var end: Result<AnswerReport, any Error>?
    }

    private let pending = Mutex(Update())
    private let signal = DispatchSemaphore(value: 0)

    /// The answer so far (from the generating task).
    func publish(_ text: String) {
        pending.withLock { $0.text = text }
        signal.signal()
    }

    /// The answer is over (from the generating task).
    func finish(_ end: Result<AnswerReport, any Error>) {
        pending.withLock { $0.end = end }
        signal.signal()
    }

    /// Blocks the writer's thread until something new arrives, and takes it.
    func next() -> Update {
        while true {
            signal.wait()
            let update = pending.withLock { pending in
                defer { pending = Update() }
                return pending
            }
            if update.text != nil || update.end != nil { return update }
        }
    }
}
