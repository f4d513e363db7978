import Lantern

/// The app layer's progress drawn as `ask` draws it: a `Progress` line on stderr per stage.
struct TerminalProgress: ProgressReporter {
    func begin(_ label: String, total: Int?) -> any ProgressStage {
        Progress(label, total: total)
    }
}
