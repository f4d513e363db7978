import LocalModel
import SearchIndex
import SearchTool

/// The trace of one answer (query → results → fetched items), built from the transcript alone:
/// each tool output is paired with its call by call id, a search's results are read from the
/// `SearchReply` values its output carries, and arguments through the tools' own `Arguments`.
/// It reads the transcript as it grows, so `ask` can print each step as its output arrives.
struct Trace {
    let searchToolName: String
    let fetchToolName: String
    /// Every step so far, in transcript order.
    private(set) var steps: [AnswerReport.Step] = []
    /// Every reply of every search so far, in transcript order.
    private(set) var replies: [SearchReply] = []
    private var calls: [String: Transcript.ToolCall] = [:]
    private var stepsByCall: [String: AnswerReport.Step] = [:]
    private var entriesRead = 0

    init(searchToolName: String, fetchToolName: String) {
        self.searchToolName = searchToolName
        self.fetchToolName = fetchToolName
    }

    /// Reads the entries of `entries` not read before (each snapshot's entries extend the
    /// last one's) and returns the steps they completed.
    mutating func read(_ entries: some Collection<Transcript.Entry>) -> [AnswerReport.Step] {
        var completed: [AnswerReport.Step] = []
        for entry in entries.dropFirst(entriesRead) {
            entriesRead += 1
            switch entry {
            case .toolCalls(let batch):
                batch.calls.forEach { calls[$0.id] = $0 }
            case .toolOutput(let output):
                let step = step(for: output, call: calls[output.id])
                steps.append(step)
                stepsByCall[output.id] = step
                completed.append(step)
            case .instructions, .prompt, .response:
                break
            }
        }
        return completed
    }

    private mutating func step(for output: Transcript.ToolOutput, call: Transcript.ToolCall?) -> AnswerReport.Step {
        var results: Int?
        var items: [String] = []
        var adjustments: [String] = []
        var vectors: VectorCoverage?
        if output.isError {
            // a failed call returned nothing
        } else if let earlier = output.repeatedCallID.flatMap({ stepsByCall[$0] }) {
            // not run again: the earlier call's results stand
            (results, items, adjustments, vectors) = (earlier.results, earlier.items, earlier.adjustments, earlier.vectors)
        } else if output.toolName == searchToolName {
            let replies = output.structuredContents(as: SearchReply.self)
            results = replies.first?.content.resultCount
            items = replies.flatMap(\.content.items).map(\.uniqueIdentifier).uniqued()
            adjustments = replies.first?.adjustments.map(\.description) ?? []
            vectors = replies.first?.vectorCoverage
            self.replies += replies
        } else if output.toolName == fetchToolName, let arguments = call.flatMap({ try? FetchItemTool.Arguments($0.arguments) }) {
            items = [arguments.id]
        }
        return AnswerReport.Step(tool: output.toolName.isEmpty ? "(malformed call)" : output.toolName,
                                 arguments: call?.arguments ?? .null, results: results, items: items,
                                 error: output.isError ? output.text : nil, repeated: output.repeatedCallID != nil,
                                 adjustments: adjustments, vectors: vectors)
    }
}
