import CommandLineArguments
import Foundation
import Lantern
import LocalModel
import SearchTool
import TokenBudget

/// `ask [QUESTION]`: answers one question over the chosen data, or, with no question, opens an
/// interactive prompt where each question is a fresh retrieval with the model loaded once.
struct QuestionCommand: Command {
    static let configuration = CommandConfiguration(
        tool: "ask", abstract: "Ask questions about your own data with a local model.",
        discussion: [
            "With no question, ask opens an interactive prompt (line editing, history; Ctrl-D quits).",
            "Ctrl-C stops an answer: back to the prompt, or exit code 130 when not interactive.",
            "Images given with --image are attached to every question (interactive ones too).",
            "",
            "EXAMPLES:",
            "  ask \"Which trails in California have water features?\"",
            "  ask --image receipt.jpg --image box.png:parcel \"What does the code on parcel say?\"",
            "  ask index --folder ~/notes && ask --index notes \"What did I write about tents?\"",
            "  ask --server http://127.0.0.1:8080 \"Which trails are in Utah?\"   (a model llama-server runs)",
        ],
        subcommands: Ask.subcommands.map { .init(name: $0.configuration.name, abstract: $0.configuration.abstract) },
        version: Ask.version)

    @OptionGroup var modelFlags: ModelLoadingOptions
    @OptionGroup var server: ServerOptions
    @OptionGroup var data: DataOptions
    @OptionGroup var guide: GuideOptions
    @Option("image", .text("FILE[:label]"),
            help: "Attach an image to the question (repeatable); adds the OCR and barcode tools. The label defaults to the file name without extension.")
    var images: [String]
    @Option("max-tokens", .wholeNumber(atLeast: 1), help: "Most tokens per generation round (default: a quarter of the window, at most 512).")
    var maximumTokens: Int?
    @Option(.answer) var answerStyle: GenerationOptions.AnswerStyle
    @Flag("think", help: "Let a thinking model (Qwen3) think before answering (costs tokens).") var thinking: Bool
    @Flag("json", help: "Print one JSON object: answer, sources, trace, timings, tokens.") var json: Bool
    @Flag("trace", help: "Print the full transcript after the answer.") var trace: Bool
    @Argument("QUESTION", help: "The question (several words are joined); none opens the interactive prompt.") var words: [String]

    var modelOptions: ModelOptions { modelFlags.options }

    func run() async throws -> Int32 {
        // the mistakes the options cannot see alone, before anything is loaded
        let selection = try data.soleSelection(usage: Self.usage)
        try server.check(with: modelFlags, usage: Self.usage)
        let imageOptions = try ImageOptions(images)
        let text = words.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty && !words.isEmpty {
            throw Self.usageError("the question is empty; write one, or give none to open the interactive prompt")
        }
        let question = text.isEmpty ? nil : text

        let interactive = question == nil && Terminal.standardInputIsTerminal
        InterruptMonitor.shared.install(interactive: interactive)
        if server.server == nil || modelFlags.model != nil { _ = try modelOptions.loader.locate() }
        // before the index, which may take a while to build: a wrong URL or key fails at once
        let remote = try await server.connect(with: modelFlags)
        let opened = try await data.opener.open(selection)
        if let summary = opened.summary, Terminal.standardErrorIsTerminal {
            Terminal.error("Index '\(opened.name)': \(summary)\n")
        }
        let setup = try await SearchSetup(index: opened.index, guide: guide.level, format: guide.format)
        let model: any LanguageModel, loadDuration: Duration
        if let remote {
            (model, loadDuration) = (remote, .zero)
        } else {
            let (local, duration) = try await modelOptions.loader.load()
            try modelOptions.checkContext(for: local)
            (model, loadDuration) = (local, duration)
        }
        var answerer = QuestionAnswerer(model: model, setup: setup)
        answerer.attachments = imageOptions.attachments
        answerer.extraTools = imageOptions.tools
        answerer.window = modelFlags.context
        answerer.maximumTokens = maximumTokens
        answerer.thinking = thinking
        answerer.answerStyle = answerStyle
        answerer.fullTranscript = trace
        answerer.loadDuration = loadDuration
        let runner = QuestionRunner(answerer: answerer, json: json)
        if let question {
            try await answer(question, with: runner)
            return 0
        }
        if interactive {
            Terminal.output("Asking about '\(opened.name)' (\(opened.itemCount) items) with \(answerer.modelDescription). Ctrl-D quits.\n")
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
