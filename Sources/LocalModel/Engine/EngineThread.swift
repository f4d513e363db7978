import Foundation
import Synchronization

/// The one OS thread on which every `InferenceContext` runs, so every llama.cpp decode in the
/// process starts from the same thread.
///
/// Why: ggml's CPU backend parallelises with OpenMP, and libgomp keeps a separate worker team
/// for each thread that opens a parallel region. Left on Swift's cooperative pool, decodes hop
/// between pool threads, several teams exist at once, libgomp sees more threads than cores and
/// stops spinning between operations, and generation ran at 0.6 of `llama-bench`'s speed.
/// Decodes from different contexts would compete for the same cores anyway, so running them
/// one after another on this thread costs nothing (and sessions that share a context decode
/// together: `SharedContext`). Loading a model runs here too: some CPU
/// backends (AMX on Intel Xeons) convert the weights in an OpenMP region while they load, and a
/// load on any other thread would leave a second team behind. Other libraries that parallelise
/// with OpenMP (Tesseract, in VisionTools) run here for the same reason: an actor whose
/// `unownedExecutor` is this thread's keeps their work on it.
public final class EngineThread: SerialExecutor, @unchecked Sendable {
    /// The engine thread all llama.cpp work goes to now.
    public static var shared: EngineThread { current.withLock { $0 } }
    private static let current = Mutex(EngineThread())

    /// Starts a fresh engine thread for all later work and hands it what is waiting, when the
    /// current one will never return (an RPC server died inside ggml: `RPCServerLoss`). A
    /// caller of `run` waiting on the stuck work gets `error`, when its error type holds it.
    /// Returns the OS thread that was replaced.
    @discardableResult
    static func replaceShared(abandoning error: LocalModelError) -> pthread_t? {
        let fresh = EngineThread()
        // under the lock `add` takes: work for the old thread lands in its queue before the move
        // or goes to the fresh one after it, never in a queue nobody reads
        let old = current.withLock { thread in
            let old = thread
            thread = fresh
            for work in old.pending.withLock({ queued in defer { queued.removeAll() }; return queued }) { fresh.append(work) }
            return old
        }
        old.abandonRunning.withLock { abandon in defer { abandon = nil }; return abandon }?(error)
        return old.threadID.withLock { $0 }
    }

    /// Whether the caller runs on this engine thread.
    var isCurrentThread: Bool {
        guard let id = threadID.withLock({ $0 }) else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    /// What the thread runs: a task's job, or a closure someone waits for.
    private enum Work {
        case job(UnownedJob)
        /// With what ends its caller's wait if it never returns.
        case closure(@Sendable () -> Void, abandon: (@Sendable (LocalModelError) -> Void)?)
    }

    private let pending = Mutex<[Work]>([])
    /// Ends the wait of the `run` caller whose closure runs now, if that closure never returns.
    private let abandonRunning = Mutex<(@Sendable (LocalModelError) -> Void)?>(nil)
    private let workAvailable = DispatchSemaphore(value: 0)
    private let threadID = Mutex<pthread_t?>(nil)

    private init() {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [unowned self] in
            // Foundation on Linux does not name the OS thread; unnamed, it (and every OpenMP
            // worker it starts) would carry the name of whichever thread made it first
            try? "lantern.engine".write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            self.threadID.withLock { $0 = pthread_self() }
            started.signal()
            self.runWork()
        }
        thread.stackSize = 8 << 20
        thread.start()
        started.wait()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        add(.job(UnownedJob(job)))
    }

    /// Runs `body` on the engine thread and waits for it (at once when called from there).
    /// If an RPC server dies inside it, the wait ends with `.rpcServerDied` when `Failure` can
    /// hold it (`replaceShared`).
    func run<T, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) throws(Failure) -> T {
        if isCurrentThread { return try body() }
        let completion = Completion<T, Failure>()
        add(.closure({ completion.finish(Result { () throws(Failure) -> T in try body() }) },
                     abandon: { error in if let error = error as? Failure { completion.finish(.failure(error)) } }))
        return try completion.wait().get()
    }

    /// The outcome of one `run`, taken from whichever comes first: the closure's return or its
    /// abandonment.
    private final class Completion<T, Failure: Error>: @unchecked Sendable { // written once, before `done` is signalled; read after
        private var result: Result<T, Failure>?
        private let claimed = Mutex(false)
        private let done = DispatchSemaphore(value: 0)

        func finish(_ outcome: Result<T, Failure>) {
            guard claimed.withLock({ claimed in defer { claimed = true }; return !claimed }) else { return }
            result = outcome
            done.signal()
        }

        func wait() -> Result<T, Failure> {
            done.wait()
            return result!
        }
    }

    /// Runs `body` on the engine thread later, without waiting (a release that must not block
    /// the thread that lets go of the last reference).
    func post(_ body: @escaping @Sendable () -> Void) {
        add(.closure(body, abandon: nil))
    }

    /// Queues `work` here, or on the thread that replaced this one (`replaceShared`): a task
    /// that waited for a wake-up while its thread got stuck resumes on the executor it left
    /// from, this one.
    private func add(_ work: Work) {
        Self.current.withLock { current in (current === self ? self : current).append(work) }
    }

    private func append(_ work: Work) {
        pending.withLock { $0.append(work) }
        workAvailable.signal()
    }

    private func runWork() -> Never {
        let executor = asUnownedSerialExecutor()
        while true {
            workAvailable.wait()
            // empty when the work was handed to a fresh thread (`replaceShared`)
            guard let work = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            switch work {
            case .job(let job): job.runSynchronously(on: executor)
            case .closure(let closure, let abandon):
                // set here, on the thread that runs it: work moves to a fresh thread on a loss
                abandonRunning.withLock { $0 = abandon }
                closure()
                abandonRunning.withLock { $0 = nil }
            }
        }
    }
}
