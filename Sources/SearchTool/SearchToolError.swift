/// Why a search or fetch could not run. The message goes back to the model as the tool's
/// output, so each one says what was wrong and what to write instead.
public enum SearchToolError: Error, Sendable, CustomStringConvertible {
    /// The arguments do not form a query this tool understands.
    case invalidQuery(String)
    /// A source could not be searched (its index failed to open or to answer).
    case sourceFailed(source: String, reason: String)
    /// A stage got data it does not accept.
    case stageInputMismatch(stage: String, accepted: [SearchPipelineDataType], got: SearchPipelineDataType)
    /// A custom stage threw.
    case customStageFailed(stage: String, reason: String)

    public var description: String {
        switch self {
        case .invalidQuery(let reason):
            return "Invalid query: \(reason). Write the query as the tool's schema describes."
        case let .sourceFailed(source, reason):
            return "The source \(source) could not be searched: \(reason)."
        case let .stageInputMismatch(stage, accepted, got):
            return "The stage \(stage) takes \(accepted.map(\.rawValue).joined(separator: " or ")) but the stage before it produced \(got.rawValue); reorder the stages or drop one."
        case let .customStageFailed(stage, reason):
            return "The stage \(stage) failed: \(reason). Try the query without it."
        }
    }
}
