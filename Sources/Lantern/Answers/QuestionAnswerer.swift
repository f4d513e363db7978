import Foundation
import LocalModel
import RemoteModel
import SearchIndex
import SearchTool
import TokenBudget

/// Answers one question over an index into an `AnswerReport`: a fresh session with a fresh
/// search tool (`SearchSetup.makeSession`), the first round bound to search, then the answer
/// with its sources numbered as it cites them. Every front end answers through it, so an answer
/// and its sources read the same in `ask`, `ask --json` and anything serving them.
public struct QuestionAnswerer: Sendable {
    /// The model in-process (`LocalModel`) or on a server (`OpenAICompatibleModel`).
    public let model: any LanguageModel
    public let setup: SearchSetup
    /// Images attached to every question.
    public var attachments: [ImageAttachment] = []
    /// Tools offered besides search and fetch (the ones that read the attachments).
    public var extraTools: [any Tool] = []
    /// The context window; nil is the model's default.
    public var window: ContextWindow? = nil
    /// The cap on each generation round's tokens; nil is the session's default.
    public var maximumTokens: Int? = nil
    /// The cap of a round that can only be calls (the first, searching one); nil:
    /// `maximumTokens`. A server whose client caps the answer short sets its own cap here, so
    /// the search is not cut (`GenerationOptions.maximumToolCallRoundTokens`).
    public var maximumCallRoundTokens: Int? = nil
    public var thinking = false
    /// How answers are written.
    public var answerStyle: GenerationOptions.AnswerStyle = .automatic
    /// Whether the report carries the whole transcript.
    public var fullTranscript = false
    /// How long the model took to load, reported with the answer's timings.
    public var loadDuration: Duration = .zero

    public init(model: any LanguageModel, setup: SearchSetup) {
        self.model = model
        self.setup = setup
    }

    /// What the model is called where clients name it: the file's name without `.gguf`, or
    /// the server's name for its model.
    public var modelName: String {
        switch model {
        case let local as LocalModel: local.url.deletingPathExtension().lastPathComponent
        case let remote as OpenAICompatibleModel: remote.modelName
        default: "\(type(of: model))"
        }
    }

    /// The model for a person to read: the file's name, or the served name and its server.
    public var modelDescription: String {
        switch model {
        case let local as LocalModel: local.url.lastPathComponent
        case let remote as OpenAICompatibleModel: "'\(remote.modelName)' on \(remote.url.absoluteString)"
        default: modelName
        }
    }

    /// Answers `question`, telling `onEvent` each finished tool call and the answer as it
    /// grows. A cancelled task stops the generation and throws (`CancellationError` or
    /// `LanguageModelSession.GenerationError.cancelled`, whichever the session saw first).
    public func answer(_ question: String, onEvent: (AnswerEvent) -> Void = { _ in }) async throws -> AnswerReport {
        try await answer(Conversation(next: .question(question)), onEvent: onEvent)
    }

    /// Answers the conversation's next turn: its question with the search loop, or the outputs
    /// of its external calls. The answer may end in calls of the conversation's external tools
    /// instead (`AnswerReport.externalToolCalls`). A conversation with a history must fit the
    /// window as sent, with the answer's reserve, or it is refused before anything is decoded
    /// (`GenerationError.exceededContextWindowSize`, naming what filled it): trimming the
    /// caller's own turns would answer a conversation other than the one it sent. What the
    /// searches add is made room for as in any session (oldest tool exchanges first).
    public func answer(_ conversation: Conversation, onEvent: (AnswerEvent) -> Void = { _ in }) async throws -> AnswerReport {
        let (session, tool) = setup.makeSession(model: model, window: window, thinking: thinking, extraTools: extraTools,
                                                externalTools: conversation.externalTools, instructions: conversation.instructions,
                                                history: conversation.history)
        let serverTools = Set([tool.name, tool.configuration.fetchToolName] + extraTools.map(\.name))
        var options = Self.options(for: conversation, serverTools: serverTools, maximumTokens: maximumTokens, answerStyle: answerStyle)
        options.maximumToolCallRoundTokens = maximumCallRoundTokens
        let responses: ResponseStream<String>
        switch conversation.next {
        case .question(let question):
            let prompt = Prompt(question, attachments: attachments)
            if !conversation.history.isEmpty { try Self.enforce(session.budgetReport(for: prompt, options: options)) }
            responses = session.streamResponse(to: prompt, options: options)
        case .toolOutputs(let outputs):
            try Self.enforce(session.budgetReport(continuingWith: outputs, options: options))
            responses = session.streamResponse(continuingWith: outputs, options: options)
        }
        let (response, trace) = try await stream(responses, tool: tool, onEvent: onEvent)
        let usage = response.usage
        return AnswerReport(
            question: conversation.question, answer: response.content,
            answerStyle: answerStyle.resolved(parameterCount: model.parameterCount).rawValue,
            sources: try await sources(steps: trace.steps, replies: trace.replies, citations: response.citations), trace: trace.steps,
            timings: .init(load: loadDuration.seconds, retrieval: usage.toolDuration.seconds,
                           prefill: usage.prefillDuration.seconds, decode: usage.decodeDuration.seconds,
                           firstToken: usage.timeToFirstToken?.seconds, firstGenerated: usage.timeToFirstGeneratedText?.seconds),
            tokens: .init(prompt: usage.promptTokens, cached: usage.cachedTokens, restored: usage.restoredTokens, generated: usage.generatedTokens),
            notes: usage.promptStateNotes.map(\.description),
            transcript: fullTranscript ? session.transcript.map { AnswerReport.Entry(kind: $0.kindName, text: $0.text) } : nil,
            truncation: response.truncation.map(AnswerReport.Truncation.init),
            externalToolCalls: response.externalToolCalls.isEmpty ? nil : response.externalToolCalls.map(AnswerReport.ExternalCall.init))
    }

    /// The response's options for the conversation: a new question's first round must search
    /// or, with `auto`, call an external tool (a small model otherwise answers from memory);
    /// after it the model may search again or answer. `required` and a named tool bind the
    /// first round to the external tools alone; `none` leaves them out of every grammar.
    private static func options(for conversation: Conversation, serverTools: Set<String>, maximumTokens: Int?,
                                answerStyle: GenerationOptions.AnswerStyle) -> GenerationOptions {
        var options = GenerationOptions(maximumResponseTokens: maximumTokens, toolCallingMode: .required, answerStyle: answerStyle)
        if case .toolOutputs = conversation.next { options.toolCallingMode = .allowed }
        let external = Set(conversation.externalTools.map(\.name))
        guard !external.isEmpty else { return options }
        switch conversation.toolChoice {
        case .none:
            options.allowedToolNames = serverTools
        case .auto:
            break
        case .required:
            options.allowedToolNames = external
            options.toolCallingMode = .required
        case .named(let name):
            options.allowedToolNames = [name]
            options.toolCallingMode = .required
        }
        return options
    }

    /// Throws the overflow of a request that does not fit, as the session itself would.
    private static func enforce(_ report: BudgetReport) throws {
        do {
            try report.enforce()
        } catch {
            throw LanguageModelSession.GenerationError.exceededContextWindowSize(error)
        }
    }

    /// Reads the snapshots: steps as tool outputs arrive, the answer as it grows with its
    /// markers as the numbers of the sources. Text from a marker still open is held back until
    /// its `]` tells whether it cites a source; the text so far is numbered as the whole answer
    /// will be (`Citation.citations` over the sources shown so far, whose order of first
    /// markers a longer text only extends), and the end by the response's citations.
    private func stream(_ stream: ResponseStream<String>, tool: SearchTool,
                        onEvent: (AnswerEvent) -> Void) async throws -> (LanguageModelSession.Response<String>, Trace) {
        var trace = Trace(searchToolName: tool.name, fetchToolName: tool.configuration.fetchToolName)
        do {
            for try await snapshot in stream {
                for step in trace.read(snapshot.transcriptEntries) { onEvent(.step(step, tool: tool)) }
                let content = snapshot.content
                let ready = String(content[..<(Citation.openMarkerStart(in: content) ?? content.endIndex)])
                let citations = Citation.markers(in: ready).isEmpty ? [] : Citation.citations(in: ready, sources: snapshot.sources)
                onEvent(.text(CitationNumbers(citations).rendered(ready)))
            }
            try Task.checkCancellation()
        } catch {
            // A cancelled answer returns once its generation has stopped, not before: until then
            // the session holds its sequence of the model's context, and a server that gave the
            // turn to the next question would have that one make a context of its own.
            _ = try? await stream.collect()
            throw error
        }
        let response = try await stream.collect()
        onEvent(.text(CitationNumbers(response.citations).rendered(response.content)))
        return (response, trace)
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
}
