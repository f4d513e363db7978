import Foundation
import Lantern
import LocalModel
import SearchTool
import VisionTools

/// Answers one question through the app layer (`QuestionAnswerer`) and prints it: a compact
/// trace (query → results → fetched items) and the answer streamed to stdout as it is
/// generated, then the sources. With `json` nothing is printed; the caller prints the report.
struct QuestionRunner: Sendable {
    let answerer: QuestionAnswerer
    let json: Bool

    /// Thrown when Ctrl-C stopped the answer.
    struct Interrupted: Error {}

    func ask(_ question: String) async throws -> AnswerReport {
        let consumer = Task { [answerer, json] in
            var printed = 0
            return try await answerer.answer(question) { event in
                guard !json else { return }
                switch event {
                case .step(let step, let tool):
                    Terminal.output(Terminal.dim(Self.traceLine(step, tool: tool)) + "\n")
                case .text(let rendered):
                    guard rendered.count > printed else { return }
                    Terminal.output(String(rendered.dropFirst(printed)))
                    printed = rendered.count
                }
            }
        }
        let outcome = await InterruptMonitor.shared.whileRunning(cancel: { consumer.cancel() }) { await consumer.result }
        let report: AnswerReport
        do {
            report = try outcome.get()
        } catch LanguageModelSession.GenerationError.cancelled {
            if !json { Terminal.output("\n") }
            throw Interrupted()
        } catch is CancellationError {
            if !json { Terminal.output("\n") }
            throw Interrupted()
        }
        for note in report.notes { Terminal.error("ask: note: \(note)\n") }
        if !json { printEnd(report) }
        return report
    }

    private static func traceLine(_ step: AnswerReport.Step, tool: SearchTool) -> String {
        if let error = step.error {
            return "· \(step.tool) failed: \(error.split(separator: "\n").first ?? "")"
        }
        let line: String
        if step.tool == tool.name {
            let query = (try? SearchTool.Arguments(step.arguments))?.query.jsonString ?? step.arguments.jsonString
            let count = step.results.map { "\($0) result\($0 == 1 ? "" : "s")" } ?? "no results"
            // Until the embedding pass ends, meaning ranks only part of the items.
            let partial = step.vectors.flatMap { $0.isComplete ? nil : " (\($0); the others by their words)" } ?? ""
            // What the tool added or relaxed, once: a repeated call's were printed with the call.
            line = "· search \(query) → \(count)\(partial)" + (step.repeated ? "" : step.adjustments.map { "\n    \($0)" }.joined())
        } else if step.tool == tool.configuration.fetchToolName {
            line = "· fetch \(step.items.joined(separator: ", "))"
        } else {
            // An image tool: its argument names the image it read.
            line = "· \(step.tool) \((try? ImageArguments(step.arguments))?.image ?? step.arguments.jsonString)"
        }
        return step.repeated ? line + " (a repeat, not run again)" : line
    }

    private func printEnd(_ report: AnswerReport) {
        var text = report.answer.hasSuffix("\n") ? "" : "\n"
        if !report.sources.isEmpty {
            text += "\nSources:\n"
            let cited = report.sources.filter { $0.citation != nil }
            let shown = cited + report.sources.filter { $0.citation == nil }.prefix(max(0, 10 - cited.count))
            let width = shown.map(\.id.count).max() ?? 0
            let numberWidth = String(cited.count).count + 2
            for source in shown {
                let path = source.path.flatMap { $0 == source.id ? nil : "  \($0)" } ?? ""
                let number = (source.citation.map { "[\($0)]" } ?? "").padding(toLength: numberWidth, withPad: " ", startingAt: 0)
                let location = source.location.map { ", \($0)" } ?? ""
                text += "  \(number)  \(source.fetched ? "read" : "seen")  "
                    + "\(source.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(source.title ?? "search result")\(location)\(path)\n"
            }
            if report.sources.count > shown.count { text += "  … and \(report.sources.count - shown.count) more\n" }
        }
        if let transcript = report.transcript {
            text += "\nTranscript:\n"
            for entry in transcript { text += "[\(entry.kind)]\n\(entry.text)\n\n" }
        }
        Terminal.output(text)
    }
}
