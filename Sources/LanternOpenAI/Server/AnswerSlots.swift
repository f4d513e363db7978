import Synchronization

/// Turns at answering: `parallel` questions generate at once, up to `queue` more wait in the
/// order they came, and a request past both is refused at once (429) rather than left hanging.
/// Admission is decided on the connection's thread before any work starts; the turn is awaited
/// in the answer's task.
final class AnswerSlots: Sendable {
    private struct State {
        /// Requests admitted and not yet finished: answering or waiting.
        var admitted = 0
        var answering = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    let parallel: Int
    let queue: Int
    private let state = Mutex(State())

    init(parallel: Int, queue: Int) {
        self.parallel = parallel
        self.queue = queue
    }

    /// Admits one more request, or refuses it when `parallel` are answering and `queue` wait.
    func admit() throws(OpenAIError) {
        let admitted = state.withLock { state in
            guard state.admitted < parallel + queue else { return false }
            state.admitted += 1
            return true
        }
        guard admitted else { throw .busy(answering: parallel, waiting: queue) }
    }

    /// Returns when an admitted request may generate.
    func takeTurn() async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.answering < parallel else {
                    state.waiting.append(turn)
                    return false
                }
                state.answering += 1
                return true
            }
            if now { turn.resume() }
        }
    }

    /// An admitted request is done: its turn goes to the first one waiting.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.admitted -= 1
            guard !state.waiting.isEmpty else {
                state.answering -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
