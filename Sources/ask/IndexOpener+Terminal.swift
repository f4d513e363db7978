import Lantern

extension IndexOpener {
    /// An opener that shows its progress and notes on stderr as `ask` does: a note that another
    /// writer holds the index always (the wait could otherwise look like a hang), a note that
    /// vectors are being remade only on a terminal (a log gets the summary line instead).
    static func terminal(embeddingModel: String?, replacesSource: Bool = false) -> IndexOpener {
        IndexOpener(embeddingModel: embeddingModel, replacesSource: replacesSource, progress: TerminalProgress()) { note in
            if case .vectorsReplaced = note, !Terminal.standardErrorIsTerminal { return }
            Terminal.error("\(note)\n")
        }
    }
}
