import Foundation
import LocalModel
import SearchTool

/// `ask [QUESTION]`: answers one question over the chosen data, or, with no question, opens an
/// interactive prompt where each question is a fresh retrieval with the model loaded once.
struct QuestionCommand: Command {
    static let dataOptions: [CommandSpec.Option] = [
        .value("corpus", "FILE.jsonl", "Ask about a JSON Lines corpus (indexed on first use, again when it changes)."),
        .value("folder", "DIR", "Ask about a folder of documents (indexed incrementally)."),
        .value("index", "NAME", "Ask about an index built with 'ask index' (default: the built-in sample corpus)."),
    ]

    static let spec = CommandSpec(
        name: "", abstract: "Ask questions about your own data with a local model.",
        positional: "QUESTION", positionalHelp: "The question (several words are joined); none opens the interactive prompt.",
        options: ModelOptions.options + dataOptions + GuideOptions.options + [ImageOptions.option] + [
            .value("max-tokens", "N", "Most tokens per generation round (default: a quarter of the window, at most 512)."),
            .flag("think", "Let a Qwen3 model think before answering (costs tokens)."),
            .flag("json", "Print one JSON object: answer, sources, trace, timings, tokens."),
            .flag("trace", "Print the full transcript after the answer."),
        ],
        discussion: [
            "With no question, ask opens an interactive prompt (line editing, history; Ctrl-D quits).",
            "Ctrl-C stops an answer: back to the prompt, or exit code 130 when not interactive.",
            "Images given with --image are attached to every question (interactive ones too).",
            "",
            "EXAMPLES:",
            "  ask \"Which trails in California have water features?\"",
            "  ask --image receipt.jpg --image box.png:parcel \"What does the code on parcel say?\"",
            "  ask index --folder ~/notes && ask --index notes \"What did I write about tents?\"",
        ],
        subcommands: Ask.subcommands.map { ($0.spec.name, $0.spec.abstract) })

    let modelOptions: ModelOptions
    let guideOptions: GuideOptions
    let imageOptions: ImageOptions
    let selection: DataSelection
    let question: String?
    let maximumTokens: Int?
    let thinking: Bool
    let json: Bool
    let trace: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let chosen = ["corpus", "folder", "index"].filter { arguments.value($0) != nil }
        if chosen.count > 1 {
            throw UsageError("--\(chosen[0]) and --\(chosen[1]) cannot be used together; pick one source of data", spec: Self.spec)
        }
        modelOptions = try ModelOptions(arguments)
        guideOptions = try GuideOptions(arguments)
        imageOptions = try ImageOptions(arguments)
        selection = try DataSelection.from(arguments)
        let text = arguments.positionals.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty && !arguments.positionals.isEmpty {
            throw UsageError("the question is empty; write one, or give none to open the interactive prompt", spec: Self.spec)
        }
        question = text.isEmpty ? nil : text
        maximumTokens = try arguments.integer("max-tokens", atLeast: 1)
        thinking = arguments.flag("think")
        json = arguments.flag("json")
        trace = arguments.flag("trace")
    }

    func run() async throws -> Int32 {
        let interactive = question == nil && Terminal.standardInputIsTerminal
        InterruptMonitor.shared.install(interactive: interactive)
        _ = try modelOptions.locate()
        let opened = try await IndexOpener().open(selection)
        if let summary = opened.summary, Terminal.standardErrorIsTerminal {
            Terminal.error("Index '\(opened.name)': \(summary)\n")
        }
        let setup = try await SearchSetup(index: opened.index, guide: guideOptions.level, format: guideOptions.format)
        let (model, loadDuration) = try await modelOptions.load()
        try modelOptions.checkContext(for: model)
        let runner = QuestionRunner(model: model, setup: setup, images: imageOptions, window: modelOptions.context, maximumTokens: maximumTokens, thinking: thinking,
                                    json: json, fullTrace: trace, loadDuration: loadDuration)
        if let question {
            try await answer(question, with: runner)
            return 0
        }
        if interactive {
            Terminal.output("Asking about '\(opened.name)' (\(opened.itemCount) items) with \(model.url.lastPathComponent). Ctrl-D quits.\n")
        }
        let editor = LineEditor(historyFile: LineEditor.defaultHistoryFile)
        while let line = editor.readLine(prompt: "ask> ") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty { continue }
            if text == "exit" || text == "quit" { break }
            do {
                try await answer(text, with: runner)
            } catch is QuestionRunner.Interrupted where interactive {
                Terminal.output(Terminal.dim("(stopped)") + "\n")
            } catch let error as QuestionRunner.Interrupted {
                throw error
            } catch where interactive {
                Terminal.error("ask: error: \(Ask.oneLine(error))\n")
            }
            if interactive { Terminal.output("\n") }
        }
        return 0
    }

    private func answer(_ question: String, with runner: QuestionRunner) async throws {
        let report = try await runner.ask(question)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Terminal.output(String(decoding: try encoder.encode(report), as: UTF8.self) + "\n")
        }
    }
}
