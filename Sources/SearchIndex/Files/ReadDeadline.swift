import Foundation
import Synchronization

/// Runs blocking file work (an open, a read) on a dispatch thread and waits for it at most a
/// deadline, so a file whose read never ends (a FUSE or network file system that stopped
/// answering, a kernel file that waits for events) costs a refresh the deadline and a skipped
/// file, never the refresh. On the cooperative pool (one thread per core) a blocked read would
/// also hold a thread the rest of the program needs.
///
/// A read cannot be taken back from the kernel: past the deadline its thread is left to finish
/// on its own, and whatever it returns (an open file included) is released then.
struct ReadDeadline: Sendable {
    var timeout: Duration

    /// `work`'s result, or a `FileTextExtractor.Failure` naming `what` when it took longer than
    /// `timeout` or the task was cancelled.
    func run<Value: Sendable>(_ what: String,
                              _ work: @escaping @Sendable () -> Result<Value, FileTextExtractor.Failure>)
        async throws(FileTextExtractor.Failure) -> Value {
        let timeout = self.timeout
        let waiter = Waiter<Value>()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, FileTextExtractor.Failure>, Never>) in
                guard waiter.start(continuation) else { return }
                // A dispatch source may be cancelled from any thread.
                nonisolated(unsafe) let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
                timer.schedule(deadline: .now() + Self.interval(timeout))
                timer.setEventHandler {
                    waiter.finish(.failure(FileTextExtractor.Failure(description: "\(what) took longer than \(timeout) and was given up")))
                }
                timer.resume()
                DispatchQueue.global(qos: .utility).async {
                    let result = work()
                    timer.cancel()
                    waiter.finish(result)
                }
            }
        } onCancel: {
            waiter.finish(.failure(FileTextExtractor.Failure(description: "\(what) was cancelled")))
        }
        return try result.get()
    }

    /// A duration as dispatch's interval, at least a nanosecond and at most a year.
    static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        guard seconds < 365 * 86_400 else { return .seconds(365 * 86_400) }
        return .nanoseconds(max(1, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
    }

    /// The one continuation of a `run`, resumed by whichever of the work, the timer and a
    /// cancellation comes first. A cancellation can come before the continuation exists; it is
    /// kept and delivered when it does.
    private final class Waiter<Value: Sendable>: Sendable {
        private enum State {
            case waiting
            case started(CheckedContinuation<Result<Value, FileTextExtractor.Failure>, Never>)
            case finishedEarly(Result<Value, FileTextExtractor.Failure>)
            case done
        }

        private let state = Mutex<State>(.waiting)

        /// Keeps `continuation`; false when the run already ended (cancelled before it began),
        /// after resuming it.
        func start(_ continuation: CheckedContinuation<Result<Value, FileTextExtractor.Failure>, Never>) -> Bool {
            let early: Result<Value, FileTextExtractor.Failure>? = state.withLock { state in
                if case .finishedEarly(let result) = state {
                    state = .done
                    return result
                }
                state = .started(continuation)
                return nil
            }
            guard let early else { return true }
            continuation.resume(returning: early)
            return false
        }

        func finish(_ result: Result<Value, FileTextExtractor.Failure>) {
            let continuation: CheckedContinuation<Result<Value, FileTextExtractor.Failure>, Never>? = state.withLock { state in
                switch state {
                case .waiting:
                    state = .finishedEarly(result)
                    return nil
                case .started(let continuation):
                    state = .done
                    return continuation
                case .finishedEarly, .done:
                    return nil
                }
            }
            continuation?.resume(returning: result)
        }
    }
}
