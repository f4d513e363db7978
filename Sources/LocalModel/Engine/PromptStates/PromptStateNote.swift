/// Why a saved prompt state (`PromptCache`) was not used or not kept. Never an error: the
/// prompt was decoded in full instead, so the answer is the one a cold start gives. Reported in
/// `GenerationSummary.promptStateNotes` (and a response's `Usage`), so a caller can show it.
public enum PromptStateNote: Error, Sendable, Hashable, CustomStringConvertible {
    /// The saved file was cut short, damaged or not one Lantern wrote for this key; it was
    /// removed, and the next decode of the prefix saves a good one.
    case damagedFile(path: String, reason: String)
    /// The state could not be written (a full disk, a folder this user may not write).
    case notSaved(folder: String, reason: String)
    /// Saved states could not be named, so none was looked for or kept: the model file, whose
    /// SHA-256 names them, could not be read.
    case unavailable(reason: String)

    public var description: String {
        switch self {
        case .damagedFile(let path, let reason):
            "the saved prompt state \(path) was unusable (\(reason)); it was removed and the prompt decoded in full, which saves it again"
        case .notSaved(let folder, let reason):
            "the prompt state could not be saved in \(folder) (\(reason)); the next process decodes the prompt in full again. Make the folder writable, set XDG_CACHE_HOME elsewhere, or turn the prompt cache off"
        case .unavailable(let reason):
            "no prompt state was loaded or saved: \(reason)"
        }
    }
}
