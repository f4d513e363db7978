/// Why an evaluation could not run at all (a failing sample is a result, not an error).
public enum EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The corpus holds no items, so no sample could find anything.
    case emptyCorpus
    /// The temporary index could not be built or described.
    case indexing(String)

    public var description: String {
        switch self {
        case .emptyCorpus:
            "the corpus holds no items; give a JSON Lines file with one item per line"
        case .indexing(let reason):
            "could not index the corpus into a temporary index: \(reason); check free space in the temporary folder"
        }
    }
}
