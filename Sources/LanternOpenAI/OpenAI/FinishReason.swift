import Lantern

/// Why a choice ended, in OpenAI's words: the model ended its answer (`stop`, also when Lantern
/// stopped an answer that repeated itself), the token cap or the window cut it (`length`), or it
/// called the client's functions (`tool_calls`).
enum FinishReason: String, Encodable, Sendable {
    case stop
    case length
    case toolCalls = "tool_calls"

    init(_ report: AnswerReport) {
        if report.externalToolCalls != nil {
            self = .toolCalls
        } else if report.truncation == .tokenLimit || report.truncation == .contextFull {
            self = .length
        } else {
            self = .stop
        }
    }
}
