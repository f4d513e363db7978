/// One stage of a `ProgressReporter`: counts as they grow, then its end.
public protocol ProgressStage: Sendable {
    /// `completed` things done so far; `total` when the stage learns it as it starts (nil keeps
    /// the one it had); `detail` says what is counted ("of 14 items").
    func update(completed: Int, total: Int?, detail: String)
    /// The stage is over (called once or more; the first call counts).
    func finish()
}
