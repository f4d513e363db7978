import Foundation
import LocalModel
import SearchIndex
import SearchTool
import TokenBudget
import VisionTools

/// Answers one question: a fresh session with a fresh search tool, the answer streamed to
/// stdout as it is generated with a compact trace before it (query → results → fetched items),
/// then the sources. With `json` nothing is printed; the caller prints the report.
struct QuestionRunner: Sendable {
    let model: LocalModel
    let setup: SearchSetup
    /// Images attached to every question, with the tools that read them.
    let images: ImageOptions
    let window: ContextWindow?
    /// The cap on each generation round's tokens; nil is the session's default.
    let maximumTokens: Int?
    let thinking: Bool
    /// How answers are written (`--answer`).
    let answerStyle: GenerationOptions.AnswerStyle
    let json: Bool
    let fullTrace: Bool
    let loadDuration: Duration

    /// Thrown when Ctrl-C stopped the answer.
    struct Interrupted: Error {}

    func ask(_ question: String) async throws -> AnswerReport {
        let (session, tool) = setup.makeSession(model: model, window: window, thinking: thinking, 
                                                extraTools: images.tools)
        // The first round must search (a small model otherwise answers from memory); after it
        // the model may search again or answer.
        let options = GenerationOptions(maximumResponseTokens: maximumTokens, toolCallingMode: .required, answerStyle: answerStyle)
        let consumer = Task { try await stream(session.streamResponse(to: Prompt(question, attachments: images.attachments), options: options),
                                               tool: tool) }
        let outcome = await InterruptMonitor.shared.whileRunning(cancel: { consumer.cancel() }) { await consumer.result }
        let (response, trace): (LanguageModelSession.Response<String>, Trace)
        do {
            (response, trace) = try outcome.get()
        } catch LanguageModelSession.GenerationError.cancelled {
            if !json { Terminal.output("\n") }
            throw Interrupted()
        } catch is CancellationError {
            if !json { Terminal.output("\n") }
            throw Interrupted()
        }
        let sources = try await sources(steps: trace.steps, replies: trace.replies, citations: response.citations)
        let usage = response.usage
        let report = AnswerReport(
            question: question, answer: response.content,
            answerStyle: answerStyle.resolved(parameterCount: model.parameterCount).rawValue, sources: sources, trace: trace.steps,
            timings: .init(load: loadDuration.seconds, retrieval: usage.toolDuration.seconds,
                           prefill: usage.prefillDuration.seconds, decode: usage.decodeDuration.seconds,
                           firstToken: usage.timeToFirstToken?.seconds, firstGenerated: usage.timeToFirstGeneratedText?.seconds),
            tokens: .init(prompt: usage.promptTokens, cached: usage.cachedTokens, restored: usage.restoredTokens, generated: usage.generatedTokens),
            notes: usage.promptStateNotes.map(\.description),
            transcript: fullTrace ? session.transcript.map { AnswerReport.Entry(kind: $0.kindName, text: $0.text) } : nil)
        for note in report.notes { Terminal.error("ask: note: \(note)\n") }
        if !json { printEnd(report) }
        return report
    }

    /// Reads the snapshots: trace lines as tool outputs arrive, the answer as it grows with its
    /// markers as the numbers of the sources listed after it. Text from a marker still open is
    /// held back until its `]` tells whether it cites a source; the text so far is numbered as
    /// the whole answer will be (`Citation.citations` over the sources shown so far, whose order
    /// of first markers a longer text only extends), and the end by the response's citations.
    private func stream(_ stream: ResponseStream<String>, tool: SearchTool) async throws -> (LanguageModelSession.Response<String>, Trace) {
        var printed = 0
        func show(_ text: String, numbers: CitationNumbers) {
            let rendered = numbers.rendered(text)
            guard !json, rendered.count > printed else { return }
            Terminal.output(String(rendered.dropFirst(printed)))
            printed = rendered.count
        }
        var trace = Trace(searchToolName: tool.name, fetchToolName: tool.configuration.fetchToolName)
        for try await snapshot in stream {
            for step in trace.read(snapshot.transcriptEntries) where !json {
                Terminal.output(Terminal.dim(traceLine(step, tool: tool)) + "\n")
            }
            guard !json else { continue }
            let content = snapshot.content
            let ready = String(content[..<(Citation.openMarkerStart(in: content) ?? content.endIndex)])
            let citations = Citation.markers(in: ready).isEmpty ? [] : Citation.citations(in: ready, sources: snapshot.sources)
            show(ready, numbers: CitationNumbers(citations))
        }
        try Task.checkCancellation()
        let response = try await stream.collect()
        show(response.content, numbers: CitationNumbers(response.citations))
        return (response, trace)
    }

    private func traceLine(_ step: AnswerReport.Step, tool: SearchTool) -> String {
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

    /// Cited sources first, numbered in the order the answer cites them, then fetched items,
    /// then every item the searches returned; titles and paths from the index. A cited source
    /// that is no item (a search's count, which the session cites by the tool's name) has none.
    private func sources(steps: [AnswerReport.Step], replies: [SearchReply], citations: [Citation]) async throws -> [AnswerReport.Source] {
        let fetched = steps.filter { $0.results == nil && $0.error == nil }.flatMap(\.items)
        let cited = citations.map(\.sourceID)
        let ids = (cited + fetched + replies.flatMap(\.content.items).map(\.uniqueIdentifier)).uniqued()
        let items = try await setup.index.fetchItems(identifiers: ids)
        let byID = Dictionary(items.map { ($0.uniqueIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
        let fetchedSet = Set(fetched)
        let numbers = CitationNumbers(citations)
        let locations = Dictionary(citations.map { ($0.sourceID, $0.location) }, uniquingKeysWith: { first, _ in first })
        // The best passage each search showed, newest reply last (it wins).
        let passages = replies.reduce(into: [String: PassageMatch]()) { shown, reply in shown.merge(reply.passages) { $1 } }
        // An id the model made up (a fetch of an item that does not exist) is no source.
        return ids.compactMap { id in
            let set = byID[id]?.attributeSet
            guard set != nil || numbers.number(of: id) != nil else { return nil }
            let passage = passages[id]
            let shownPlace = passage.flatMap { $0.passage.count > 1 ? $0.passage.location.description : nil }
            return AnswerReport.Source(id: id, title: set?.title ?? set?.displayName, path: set?.path, fetched: fetchedSet.contains(id),
                                       citation: numbers.number(of: id), location: (locations[id] ?? nil) ?? shownPlace, snippet: passage?.snippet)
        }
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

extension Transcript.Entry {
    /// The entry's kind as printed by `--trace` and `--json`.
    var kindName: String {
        switch self {
        case .instructions: "instructions"
        case .prompt: "prompt"
        case .toolCalls: "tool calls"
        case .toolOutput(let output): "tool output (\(output.toolName))"
        case .response: "response"
        }
    }
}
