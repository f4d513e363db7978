import Lantern

/// What OpenAI's shape has no room for, under the key `lantern` of a completion (and of a
/// stream's last chunk): the answer's sources and its trace of tool calls, from the same
/// `AnswerReport` that `ask --json` prints. A source's `citation` is the number the content
/// shows as `[n]`; sources without one were seen or read but not cited. Clients that do not
/// know the key ignore it (OpenAI's own client keeps it as an extra field).
struct AnswerExtension: Encodable, Sendable {
    /// Cited sources first, by number, then every other item the model saw or read.
    let sources: [AnswerReport.Source]
    /// The searches and fetches that found them, in order.
    let trace: [AnswerReport.Step]

    init(_ report: AnswerReport) {
        sources = report.sources
        trace = report.trace
    }
}
