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
/// one after another on this thread costs nothing.
final class EngineThread: SerialExecutor, @unchecked Sendable {
    static let shared = EngineThread()

    private let pending = Mutex<[UnownedJob]>([])
    private let jobsAvailable = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [unowned self] in self.runJobs() }
        thread.name = "lantern.engine"
        thread.stackSize = 8 << 20
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pending.withLock { $0.append(job) }
        jobsAvailable.signal()
    }

    private func runJobs() -> Never {
        let executor = asUnownedSerialExecutor()
        while true {
            jobsAvailable.wait()
            let job = pending.withLock { $0.removeFirst() }
            job.runSynchronously(on: executor)
        }
    }
}
