/// Where the app layer shows the progress of its long steps (indexing a folder, embedding,
/// loading a model): the library only counts, the front end decides how that looks. `ask`
/// draws a line on stderr; `ask mcp`, whose stdout is the protocol, draws the same line there;
/// an app may show nothing (`SilentProgress`).
public protocol ProgressReporter: Sendable {
    /// A stage named `label` begins; `total` is how many things it will count, when known.
    func begin(_ label: String, total: Int?) -> any ProgressStage
}

extension ProgressReporter {
    /// Runs `operation` as a stage that ticks while it works, for work with no progress of its
    /// own (llama.cpp mapping a model): a front end's spinner keeps turning meanwhile.
    public func spinning<T: Sendable>(_ label: String, _ operation: @Sendable @escaping () throws -> T) async throws -> T {
        let stage = begin(label, total: nil)
        let ticker = Task {
            while !Task.isCancelled {
                stage.update(completed: 0, total: nil, detail: "")
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer {
            ticker.cancel()
            stage.finish()
        }
        return try await Task.detached(operation: operation).value
    }
}
