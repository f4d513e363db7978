import CommandLineArguments
import Foundation
import Lantern
import LocalModel
import SearchTool
import TokenBudget

/// `ask budget`: what a question would cost in the context window, section by section
/// (instructions, each tool's description and schema, template, prompt, reserved answer),
/// for a model, a window and a search-tool guide, without running the model: only the
/// vocabulary is loaded.
struct BudgetCommand: Command {
    static let configuration = CommandConfiguration(
        tool: "ask", name: "budget",
        abstract: "Print the token budget of a question for a model, a context window and a guide, without running the model.",
        discussion: ["Only the model's vocabulary is loaded, so this is quick even for multi-gigabyte models.",
                     "EXAMPLE: ask budget --context 4k --guide complete \"Which trails are in Utah?\""])

    @Option(.model) var model: String?
    @Option(.context) var context: ContextWindow?
    @OptionGroup var data: DataOptions
    @OptionGroup var guide: GuideOptions
    @Flag("think", help: "Count as for a thinking model (Qwen3) allowed to think.") var thinking: Bool
    @Flag("json", help: "Print the report as JSON.") var json: Bool
    @Flag("show-system-prompt", help: "Print the system turn the counts are of (instructions and tool definitions) before the table.") var showSystemPrompt: Bool
    @Argument("QUESTION", help: "The question to count (default: none, only the fixed parts).") var words: [String]

    func run() async throws -> Int32 {
        let selection = try data.selection()
        let modelOptions = ModelOptions(model: self.model, context: context)
        let model = try modelOptions.loader.loadVocabulary()
        let opened = try await data.opener.open(selection)
        let setup = try await SearchSetup(index: opened.index, guide: guide.level, format: guide.format)
        let (session, tool) = setup.makeSession(model: model, window: modelOptions.window(for: model), thinking: thinking)
        defer { tool.finish() }
        let report = try session.budgetReport(for: Prompt(words.joined(separator: " ")))
        if showSystemPrompt { Terminal.output(session.systemPrompt + "\n\n") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.output(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        } else {
            Terminal.output("Model \(model.url.lastPathComponent), guide \(guide.level.rawValue) (\(guide.format == .compact ? "compact" : "structured")), index '\(opened.name)'\n")
            Terminal.output(report.table + "\n")
        }
        return report.fits ? 0 : 1
    }
}
