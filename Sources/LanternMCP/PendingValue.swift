/// A value that becomes available once (the served tools, after the index opened), awaited by
/// any number of requests. Unlike awaiting a `Task`'s value, a waiter whose own task is
/// cancelled stops waiting at once: a `tools/call` cancelled while the index is still being
/// built ends there.
actor PendingValue<Value: Sendable> {
    private var outcome: Result<Value, any Error>?
    private var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
    private var nextWaiter = 0

    /// Whether the value (or its error) is there, so awaiting it returns at once.
    var isResolved: Bool { outcome != nil }

    /// Sets the value (or the error every waiter gets); only the first call counts.
    func resolve(_ result: Result<Value, any Error>) {
        if outcome != nil { return }
        outcome = result
        for waiter in waiters.values { waiter.resume(with: result) }
        waiters = [:]
    }

    /// The value once it is there; throws its error, or `CancellationError` when the calling
    /// task is cancelled first.
    func value() async throws -> Value {
        if let outcome { return try outcome.get() }
        let number = nextWaiter
        nextWaiter += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let outcome {
                    continuation.resume(with: outcome)
                } else if Task.isCancelled {
                    // Cancelled before this ran: the handler found no waiter to end.
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters[number] = continuation
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(number) }
        }
    }

    private func cancelWaiter(_ number: Int) {
        waiters.removeValue(forKey: number)?.resume(throwing: CancellationError())
    }
}
