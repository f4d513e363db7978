import SearchTool

/// What a question's answer has done so far, told while it is generated
/// (`QuestionAnswerer.answer(_:onEvent:)`), so a front end can show it live: `ask` prints trace
/// lines and the growing answer, a server would stream them.
public enum AnswerEvent: Sendable {
    /// A tool call finished; `tool` is the question's search tool, to tell its searches and
    /// fetches from other tools' calls.
    case step(AnswerReport.Step, tool: SearchTool)
    /// The answer so far, its citation markers written as the numbers of the sources they cite;
    /// a marker still open at the end is held back until its `]` says whether it cites a source.
    /// Each text extends the previous one.
    case text(String)
}
