import Foundation
import Synchronization

/// Turns Ctrl-C (SIGINT) into a clean stop: while an answer is being generated it cancels that
/// generation (the session stops at the next token and the KV cache stays usable); at any other
/// time a non-interactive `ask` exits with 130, the shell's code for "interrupted".
///
/// The signal handler only writes a byte to a pipe (async-signal-safe); a thread reading the
/// pipe does the rest outside signal context.
final class InterruptMonitor: Sendable {
    static let shared = InterruptMonitor()

    private struct State {
        var installed = false
        var onInterrupt: (@Sendable () -> Void)?
        var interactive = false
    }

    private let state = Mutex(State())

    /// Takes over SIGINT; later calls only update `interactive`.
    func install(interactive: Bool) {
        let first = state.withLock { state -> Bool in
            state.interactive = interactive
            defer { state.installed = true }
            return !state.installed
        }
        guard first, let pipe = interruptPipe else { return }
        let reader = Thread {
            var byte: UInt8 = 0
            while read(pipe.read, &byte, 1) == 1 { InterruptMonitor.shared.interrupted() }
        }
        reader.start()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            guard let pipe = interruptPipe else { return }
            var byte: UInt8 = 1
            _ = write(pipe.write, &byte, 1)
        }
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
    }

    /// Runs `body` with Ctrl-C bound to `cancel` (for example cancelling the answer's task).
    func whileRunning<T>(cancel: @escaping @Sendable () -> Void, _ body: () async throws -> T) async rethrows -> T {
        state.withLock { $0.onInterrupt = cancel }
        defer { state.withLock { $0.onInterrupt = nil } }
        return try await body()
    }

    private func interrupted() {
        let (action, interactive) = state.withLock { ($0.onInterrupt, $0.interactive) }
        if let action {
            action()
        } else if !interactive {
            Terminal.error("\n")
            fflush(nil)
            _exit(130)  // see Ask.main: no C++ static destructors under a running generation
        }
    }
}

/// The self-pipe between the SIGINT handler and the monitor's thread (nil if pipe() failed,
/// in which case Ctrl-C keeps its default effect).
private let interruptPipe: (read: Int32, write: Int32)? = {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return nil }
    return (descriptors[0], descriptors[1])
}()
