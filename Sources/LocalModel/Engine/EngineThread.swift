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
/// one after another on this thread costs nothing. Loading a model runs here too: some CPU
/// backends (AMX on Intel Xeons) convert the weights in an OpenMP region while they load, and a
/// load on any other thread would leave a second team behind. Other libraries that parallelise
/// with OpenMP (Tesseract, in VisionTools) run here for the same reason: an actor whose
/// `unownedExecutor` is this thread's keeps their work on it.
public final class EngineThread: SerialExecutor, @unchecked Sendable {
    public static let shared = EngineThread()

    /// What the thread runs: a task's job, or a closure someone waits for.
    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private let pending = Mutex<[Work]>([])
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
    func run<T, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T) throws(Failure) -> T {
        if let id = threadID.withLock({ $0 }), pthread_equal(id, pthread_self()) != 0 { return try body() }
        nonisolated(unsafe) var result: Result<T, Failure>?
        let done = DispatchSemaphore(value: 0)
        add(.closure {
            result = Result { () throws(Failure) -> T in try body() }
            done.signal()
        })
        done.wait()
        // the semaphore orders the engine thread's write before this read
        return try result!.get()
    }

    private func add(_ work: Work) {
        pending.withLock { $0.append(work) }
        workAvailable.signal()
    }

    private func runWork() -> Never {
        let executor = asUnownedSerialExecutor()
        while true {
            workAvailable.wait()
            switch pending.withLock({ $0.removeFirst() }) {
            case .job(let job): job.runSynchronously(on: executor)
            case .closure(let closure): closure()
            }
        }
    }
}
