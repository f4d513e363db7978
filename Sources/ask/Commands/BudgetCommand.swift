import Foundation
import LocalModel

/// `ask budget`: what a question would cost in the context window, section by section
/// (instructions, each tool's description and schema, template, prompt, reserved answer),
/// for a model, a window and a search-tool guide, without running the model: only the
/// vocabulary is loaded.
struct BudgetCommand: Command {
    static let spec = CommandSpec(
        name: "budget", abstract: "Print the token budget of a question for a model, a context window and a guide, without running the model.",
        positional: "QUESTION", positionalHelp: "The question to count (default: none, only the fixed parts).",
        options: [ModelOptions.options[0], ModelOptions.options[1]] + QuestionCommand.dataOptions + GuideOptions.options + [
            .flag("think", "Count as for a Qwen3 model allowed to think."),
            .flag("json", "Print the report as JSON."),
        ],
        discussion: ["Only the model's vocabulary is loaded, so this is quick even for multi-gigabyte models.",
                     "EXAMPLE: ask budget --context 4k --guide complete \"Which trails are in Utah?\""])

    let modelOptions: ModelOptions
    let guideOptions: GuideOptions
    let selection: DataSelection
    let question: String
    let thinking: Bool
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        modelOptions = try ModelOptions(arguments)
        guideOptions = try GuideOptions(arguments)
        selection = try DataSelection.from(arguments)
        question = arguments.positionals.joined(separator: " ")
        thinking = arguments.flag("think")
        json = arguments.flag("json")
    }

    func run() async throws -> Int32 {
        let model = try modelOptions.loadVocabulary()
        let opened = try await IndexOpener().open(selection)
        let setup = try await SearchSetup(index: opened.index, guideOptions: guideOptions)
        let (session, tool) = setup.makeSession(model: model, window: modelOptions.window(for: model), thinking: thinking)
        defer { tool.finish() }
        let report = try session.budgetReport(for: Prompt(question))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.output(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        } else {
            Terminal.output("Model \(model.url.lastPathComponent), guide \(guideOptions.level.rawValue) (\(guideOptions.format == .compact ? "compact" : "structured")), index '\(opened.name)'\n")
            Terminal.output(report.table + "\n")
        }
        return report.fits ? 0 : 1
    }
}
