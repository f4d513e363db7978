/// Shows nothing: the reporter for an app that has no place to draw progress, and the default
/// of the app layer's types, so a library caller sees no output it did not ask for.
public struct SilentProgress: ProgressReporter, ProgressStage {
    public init() {}

    public func begin(_ label: String, total: Int?) -> any ProgressStage { self }
    public func update(completed: Int, total: Int?, detail: String) {}
    public func finish() {}
}
