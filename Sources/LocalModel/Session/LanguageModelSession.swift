import Foundation
import Synchronization
import TokenBudget

/// A conversation with a model that can call tools (Apple's `LanguageModelSession`).
///
/// Each `respond` renders the transcript into a ChatML prompt, checks it against the context
/// window with TokenBudget *before* decoding anything, and runs the tool loop: the model's
/// calls are constrained by a grammar compiled from the tools' schemas (so they always parse),
/// the tools run (concurrently when there are several), their outputs go back to the model,
/// until it answers. The answer after tool outputs is grounded in what they showed
/// (`CitableSource`): its citation markers can only name those sources, and in quote mode
/// (`GenerationOptions.AnswerStyle`) it is made of their sentences.
public final class LanguageModelSession: Sendable {
    public let model: any LanguageModel
    /// The instructions as the caller gave them.
    public let instructions: String
    public let contextWindow: ContextWindow
    /// Whether a thinking model (Qwen3) may think before answering. Off by default: Lantern
    /// writes the family's switch (`/no_think`) and strips the (empty) think block; thinking
    /// costs tokens a 4K window lacks.
    public let isThinkingEnabled: Bool
    /// Rounds of tool calls allowed in one response. After the last one the model must answer
    /// without tools; it fails with `toolRoundLimitReached` only if it still tries to call one.
    public let maximumToolRounds: Int
    public let toolErrorPolicy: ToolErrorPolicy
    /// Whether a call the model repeats while answering one prompt runs again.
    public let repeatedToolCallPolicy: RepeatedToolCallPolicy
    /// How the transcript is cut when it no longer fits (oldest tool outputs first).
    public let trimmingPolicy: TranscriptTrimmingPolicy
    /// Orders what the tools showed by the question before an answer round, so quotes and
    /// citations offer the best evidence first and leave out what does not relate (`AnswerEvidence`).
    /// nil: the order the tools showed it, all of it. (A Lantern addition.)
    public let evidenceRanker: (any EvidenceRanker)?
    let tools: [ToolBox]
    private let state: Mutex<State>

    private struct State: Sendable {
        var transcript = Transcript()
        var isResponding = false
        var conversation: (any LanguageModelConversation)?
        var nextID = 1
        var lastBudget: BudgetReport?

        /// A new id, never one the transcript holds already (a history's entries and calls keep
        /// the ids their caller gave them, an OpenAI client's `call_…` say).
        mutating func makeID(_ prefix: String) -> String {
            while true {
                let id = "\(prefix)-\(nextID)"
                nextID += 1
                if !transcript.holdsID(id) { return id }
            }
        }
    }

    /// - Parameters:
    ///   - contextWindow: defaults to the model's `defaultContextWindow`.
    ///   - thinking: let a Qwen3 model think (see `isThinkingEnabled`).
    ///   - evidenceRanker: orders the tools' sentences by the question for the answer round
    ///     (see `evidenceRanker`); the search tool's `evidenceRanker` ranks by the index's words and meaning.
    ///   - history: earlier turns the conversation goes on from (prompts, responses, tool calls
    ///     and their outputs), after the instructions: a conversation a client kept, sent again.
    ///     Apple's `init(model:tools:transcript:)` reads the instructions from the transcript too;
    ///     here they stay a parameter, so the system turn is written in one place. Entries must
    ///     have ids of their own and no `instructions` among them, or the first response throws
    ///     `GenerationError.invalidHistory`.
    public init(model: any LanguageModel, tools: [any Tool] = [], instructions: String? = nil,
                contextWindow: ContextWindow? = nil, thinking: Bool = false, maximumToolRounds: Int = 4,
                toolErrorPolicy: ToolErrorPolicy = .reportToModel, repeatedToolCallPolicy: RepeatedToolCallPolicy = .reuseEarlierOutput,
                trimmingPolicy: TranscriptTrimmingPolicy = .init(), evidenceRanker: (any EvidenceRanker)? = nil,
                history: [Transcript.Entry] = []) {
        self.model = model
        self.tools = tools.map { ToolBox($0) }
        self.instructions = instructions ?? ""
        self.contextWindow = contextWindow ?? model.defaultContextWindow
        self.isThinkingEnabled = thinking
        self.maximumToolRounds = max(1, maximumToolRounds)
        self.toolErrorPolicy = toolErrorPolicy
        self.repeatedToolCallPolicy = repeatedToolCallPolicy
        self.trimmingPolicy = trimmingPolicy
        self.evidenceRanker = evidenceRanker
        var initial = State()
        if !self.instructions.isEmpty || !tools.isEmpty {
            initial.transcript.append(.instructions(.init(id: initial.makeID("instructions"), text: self.instructions,
                                                          toolNames: self.tools.map(\.name))))
        }
        history.forEach { initial.transcript.append($0) }
        self.state = Mutex(initial)
    }

    /// Everything said so far.
    public var transcript: Transcript { state.withLock { $0.transcript } }

    /// Whether a response is being generated now.
    public var isResponding: Bool { state.withLock { $0.isResponding } }

    /// The engine's counters for this session's context (zero before the first decode).
    package var engineCounters: EngineCounters {
        get async { await state.withLock { $0.conversation }?.counters ?? EngineCounters() }
    }

    /// The budget of the last request the session checked (what each part of it cost).
    package var lastBudgetReport: BudgetReport? { state.withLock { $0.lastBudget } }

    /// Decodes the instructions and tool definitions into the KV cache now, so the first
    /// question only decodes itself.
    public func prewarm() async throws {
        do {
            try await conversation().prefill(prompt: systemTurn)
        } catch let error as LocalModelError {
            throw GenerationError.engineFailure(error)
        }
    }

    /// What a request for `prompt` would cost, section by section, without decoding anything
    /// (works on a vocabulary-only model). The prompt is not added to the transcript.
    public func budgetReport(for prompt: Prompt, options: GenerationOptions = GenerationOptions()) throws -> BudgetReport {
        var transcript = self.transcript
        transcript.append(.prompt(.init(id: "budget-prompt", text: prompt.renderedText, attachments: prompt.attachments, options: options)))
        return try budgetReport(of: transcript, options: options)
    }

    /// What continuing with `outputs` (`respond(continuingWith:)`) would cost, section by section,
    /// without decoding anything. The outputs are not added to the transcript.
    public func budgetReport(continuingWith outputs: [Transcript.ToolOutput], options: GenerationOptions = GenerationOptions()) throws -> BudgetReport {
        var transcript = self.transcript
        outputs.forEach { transcript.append(.toolOutput(Self.neutralized($0))) }
        return try budgetReport(of: transcript, options: options)
    }

    private func budgetReport(of transcript: Transcript, options: GenerationOptions) throws -> BudgetReport {
        try Self.checkHistory(transcript)
        let texts = Dictionary(uniqueKeysWithValues: transcript.map { ($0.id, $0.text) })
        let rendered = model.chatTemplate.render(messages(transcript, texts: texts), tools: toolDefinitions, thinking: isThinkingEnabled)
        return try BudgetReport(for: budgetRequest(transcript, texts: texts, rendered: rendered, reservedAnswerTokens: maximumTokens(options)),
                                in: contextWindow, counter: model.tokenCounter)
    }

    /// Answers `prompt`, calling tools as needed.
    public func respond(to prompt: String, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        try await respond(to: Prompt(prompt), options: options)
    }

    /// Answers a prompt with attachments, calling tools as needed.
    public func respond(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        try await run(.prompt(prompt), options: options, answer: .text, snapshot: { _, _ in })
    }

    /// Streams the answer to `prompt` as snapshots of the whole text so far.
    public func streamResponse(to prompt: String, options: GenerationOptions = GenerationOptions()) -> ResponseStream<String> {
        streamResponse(to: Prompt(prompt), options: options)
    }

    /// Streams the answer to a prompt with attachments.
    public func streamResponse(to prompt: Prompt, options: GenerationOptions = GenerationOptions()) -> ResponseStream<String> {
        let (stream, final) = streaming { (continuation: AsyncThrowingStream<Snapshot<String>, any Error>.Continuation) in
            try await self.run(.prompt(prompt), options: options, answer: .text) { text, entries in
                continuation.yield(Snapshot(content: text, rawContent: .string(text), transcriptEntries: entries))
            }
        }
        return ResponseStream(stream: stream, final: final)
    }

    /// Continues the response that ended with calls of external tools (`Response.externalToolCalls`)
    /// once the caller has run them: `outputs` answer those calls, one each, by the call's id.
    /// The loop goes on where it stopped: the model reads the outputs, then may call tools again
    /// or answer, under `options` (whose `toolCallingMode` is this continuation's first round's).
    /// A Lantern addition: Apple's tools all run inside the session, while an `ExternalTool`
    /// runs wherever its caller keeps it (an OpenAI client's own function).
    /// - Throws: `GenerationError.cannotContinue` when the transcript does not end with
    ///   external calls, or `outputs` do not answer exactly those.
    public func respond(continuingWith outputs: [Transcript.ToolOutput], options: GenerationOptions = GenerationOptions()) async throws -> Response<String> {
        try await run(.toolOutputs(outputs), options: options, answer: .text, snapshot: { _, _ in })
    }

    /// Streams the continuation of a response that ended with calls of external tools
    /// (see `respond(continuingWith:options:)`).
    public func streamResponse(continuingWith outputs: [Transcript.ToolOutput], options: GenerationOptions = GenerationOptions()) -> ResponseStream<String> {
        let (stream, final) = streaming { (continuation: AsyncThrowingStream<Snapshot<String>, any Error>.Continuation) in
            try await self.run(.toolOutputs(outputs), options: options, answer: .text) { text, entries in
                continuation.yield(Snapshot(content: text, rawContent: .string(text), transcriptEntries: entries))
            }
        }
        return ResponseStream(stream: stream, final: final)
    }

    /// Runs `produce` in a task that feeds snapshots to a stream and ends it with the result or
    /// the error; a consumer that stops listening cancels the task. Returns the stream and a way
    /// to await the result (what `collect()` returns).
    func streaming<Partial: Sendable, Final: Sendable>(
        _ produce: @escaping @Sendable (AsyncThrowingStream<Snapshot<Partial>, any Error>.Continuation) async throws -> Final
    ) -> (AsyncThrowingStream<Snapshot<Partial>, any Error>, @Sendable () async throws -> Final) {
        let (stream, continuation) = AsyncThrowingStream<Snapshot<Partial>, any Error>.makeStream()
        let task = Task {
            do {
                let result = try await produce(continuation)
                continuation.finish()
                return result
            } catch {
                continuation.finish(throwing: error)
                throw error
            }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        return (stream, { try await task.value })
    }

    // MARK: The loop

    /// How the answer round is constrained and read: free text (`respond(to:)`), or one value
    /// of a schema decoded into a type (`respond(to:generating:)`). The one loop below serves both.
    struct AnswerFormat<Content: Sendable>: Sendable {
        /// The answer's schema; nil for free text.
        var schema: GenerationSchema?
        /// The Swift type the answer becomes, for error messages.
        var typeName = "String"
        /// Added to the prompt's text (and so to the transcript and the budget), e.g. the
        /// schema described to the model.
        var promptSuffix = ""
        /// The response's content and raw content, from the visible text of every round and
        /// the answer round's own text (thinking removed).
        var decode: @Sendable (_ visibleText: String, _ answerText: String) throws -> (Content, GeneratedContent)

        static var text: AnswerFormat<String> {
            AnswerFormat<String>(schema: nil) { visible, _ in (visible, .string(visible)) }
        }
    }

    /// The states of one response, each named once (as llama.cpp's server names its slot
    /// states). A response starts `generating`; a round that wrote calls goes to `callingTools`
    /// and back to `generating`; a round that wrote none goes to `answering`, which ends it.
    private enum Phase {
        /// Decoding the next round under the grammar its mode allows.
        case generating
        /// The round wrote calls: they run, their outputs join the transcript, and the next
        /// round's mode and grammars are chosen.
        case callingTools([ToolCallSyntax.ParsedCall], Round)
        /// The round wrote no call: it is the answer, decoded and recorded.
        case answering(Round)
    }

    /// What one response carries from round to round: the loop's one mutable state.
    private struct ResponseProgress {
        /// What the next round may do with tools; `.disallowed` makes it the answer round.
        var mode: GenerationOptions.ToolCallingMode
        /// The next round's grammars, compiled again after every round of calls.
        var grammars: RoundGrammars
        /// When the response started; time to first token counts from here.
        let started = ContinuousClock.now
        var usage = Usage()
        /// The visible text of every round so far (thinking removed): what snapshots show.
        var content = ""
        /// Rounds of tool calls so far.
        var toolRounds = 0
        /// The calls made for this prompt, to recognise repeats.
        var ledger: CallLedger
        /// Where this response's entries start in the transcript (its prompt).
        let transcriptStart: Int
    }

    /// What one round wrote.
    private struct Round {
        /// The model's text as generated, thinking included.
        let raw: String
        /// The same text with thinking removed.
        let text: String
        /// How long the response's visible text was before the round: the round's own
        /// visible text is what follows.
        let contentStart: Int
        /// Why the engine ended the round.
        let stopReason: GenerationSummary.StopReason

        /// Why Lantern, not the model, ended the round, as the answer's transcript entry says it.
        var truncation: Transcript.Response.Truncation? {
            switch stopReason {
            case .repeatedSpan: .repeatedSpan(RepeatedTextStop().repeatedSpan(atEndOf: raw) ?? "")
            case .maximumTokens: .tokenLimit
            case .contextFull: .contextFull
            case .endOfGeneration, .stopString: nil
            }
        }
    }

    /// Where a response starts: a new prompt, or the outputs of the external calls the last
    /// response ended with (`respond(continuingWith:)`).
    enum ResponseStart: Sendable {
        case prompt(Prompt)
        case toolOutputs([Transcript.ToolOutput])
    }

    /// Runs the tool loop until the model answers, or calls an external tool. `snapshot`
    /// receives the visible text so far.
    func run<Content>(_ start: ResponseStart, options: GenerationOptions, answer: AnswerFormat<Content>,
                      snapshot: @Sendable (String, ArraySlice<Transcript.Entry>) -> Void) async throws -> Response<Content> {
        guard model.chatTemplate.family != .unsupported else {
            throw GenerationError.unsupportedChatTemplate(family: model.chatTemplate.family.rawValue)
        }
        // what the response answers, and what its first round may rest on, read before anything is recorded
        let (prompt, continued) = try state.withLock { state -> (Prompt, ContinuedTurn?) in
            try Self.checkHistory(state.transcript)
            switch start {
            case .prompt(let prompt):
                return (prompt, nil)
            case .toolOutputs(let outputs):
                let turn = try ContinuedTurn(state.transcript, outputs: outputs.map(Self.neutralized))
                return (turn.prompt, turn)
            }
        }
        let firstSources = continued.map { ResponseSources($0.entriesSincePrompt) } ?? ResponseSources([])
        let grammars = try await RoundGrammars(tools: tools, prompt: prompt, answer: answer, syntax: callSyntax, options: options,
                                               grounding: try await grounding(firstSources, options, question: prompt.text))
        let start = try state.withLock { state -> Int in
            guard !state.isResponding else { throw GenerationError.concurrentRequests }
            state.isResponding = true
            if let continued {
                continued.outputs.forEach { state.transcript.append(.toolOutput($0)) }
                return continued.promptIndex
            }
            state.transcript.append(.prompt(.init(id: state.makeID("prompt"), text: prompt.renderedText + answer.promptSuffix,
                                                  attachments: prompt.attachments, options: options)))
            return state.transcript.count - 1
        }
        defer { state.withLock { $0.isResponding = false } }
        func newEntries() -> ArraySlice<Transcript.Entry> { state.withLock { $0.transcript.entries[start...] } }
        func show(_ content: String) { snapshot(content, newEntries()) }

        var progress = ResponseProgress(mode: tools.isEmpty ? .disallowed : options.toolCallingMode, grammars: grammars,
                                        ledger: CallLedger(syntax: callSyntax), transcriptStart: start)
        if let continued {
            progress.toolRounds = continued.toolRounds
            if progress.toolRounds >= maximumToolRounds { progress.mode = .disallowed }
        }
        var phase = Phase.generating
        do {
            while true {
                switch phase {
                case .generating:
                    try Task.checkCancellation()
                    let round = try await generateRound(&progress, options: options, answer: answer, show: show)
                    let calls = toolCalls(in: round, mode: progress.mode, answer: answer)
                    phase = calls.isEmpty ? .answering(round) : .callingTools(calls, round)
                case .callingTools(let calls, let round):
                    let external = try await callTools(calls, of: round, &progress, prompt: prompt, options: options, answer: answer, show: show)
                    guard external.isEmpty else {
                        // the caller runs these: the response ends with them (`respond(continuingWith:)` goes on)
                        guard answer.schema == nil else {
                            throw GenerationError.decodingFailure(type: answer.typeName, rawText: round.text,
                                                                  reason: "the model called the external tool \(external[0].toolName), whose calls only a text response can hand back; offer external tools to text responses")
                        }
                        let (content, rawContent) = try answer.decode(progress.content, "")
                        let entries = newEntries()
                        return Response(content: content, rawContent: rawContent, transcriptEntries: entries, usage: progress.usage,
                                        sources: ResponseSources(entries).sources, citations: [], externalToolCalls: external)
                    }
                    phase = .generating
                case .answering(let round):
                    let (content, rawContent) = try record(round, asAnswerTo: progress, answer: answer)
                    show(progress.content)
                    let entries = newEntries()
                    let sources = ResponseSources(entries).sources
                    let citations = answer.schema == nil ? Citation.citations(in: progress.content, sources: sources) : []
                    return Response(content: content, rawContent: rawContent, transcriptEntries: entries, usage: progress.usage,
                                    sources: sources, citations: citations, externalToolCalls: [])
                }
            }
        } catch is CancellationError {
            throw GenerationError.cancelled
        } catch LocalModelError.cancelled {
            throw GenerationError.cancelled
        } catch let error as LocalModelError {
            throw GenerationError.engineFailure(error)
        }
    }

    /// `generating`: renders the transcript (within the budget), decodes one round under the
    /// grammar of its mode, and streams its visible text into `progress.content`.
    private func generateRound<Content>(_ progress: inout ResponseProgress, options: GenerationOptions, answer: AnswerFormat<Content>,
                                        show: (String) -> Void) async throws -> Round {
        let rendered = try await renderPrompt(reservedAnswerTokens: maximumTokens(options))
        // a text answer may be written in this round: it ends when it loops and not before it says
        // something (or calls), and in the answer round it may not begin as a call (a call there could not run)
        let mayAnswer = progress.mode != .required && answer.schema == nil
        let isAnswerRound = progress.mode == .disallowed && answer.schema == nil
        let parameters = GenerationParameters(
            sampling: options.samplingOptions,
            maximumTokens: progress.mode == .required ? options.maximumToolCallRoundTokens ?? maximumTokens(options) : maximumTokens(options),
            stopStrings: [model.chatTemplate.endOfTurn] + (isAnswerRound ? [callSyntax.trigger] : []),
            grammar: grammar(for: progress.mode, progress.grammars),
            repeatedSpanStop: progress.mode != .disallowed && repeatedToolCallPolicy == .reuseEarlierOutput ? progress.ledger.generationStop : nil,
            repeatedTextStop: mayAnswer ? RepeatedTextStop() : nil,
            forbiddenOpenings: isAnswerRound ? callSyntax.answerOpenings : [],
            requiresText: mayAnswer,
            forcedPrefix: forcedPrefix(for: progress),
            fixedPrefix: instructions.isEmpty && tools.isEmpty ? nil : systemTurn)
        var filter = ResponseTextFilter(layout: model.chatTemplate.toolLayout, readsOtherSpellings: answer.schema == nil)
        var raw = ""
        var stopReason = GenerationSummary.StopReason.endOfGeneration
        let contentStart = progress.content.count
        for try await event in try conversation().generate(prompt: rendered, parameters: parameters) {
            switch event {
            case .text(let text):
                if progress.usage.timeToFirstGeneratedText == nil, !text.isEmpty { progress.usage.timeToFirstGeneratedText = .now - progress.started }
                raw += text
                let visible = filter.feed(text)
                if !visible.isEmpty {
                    if progress.usage.timeToFirstToken == nil { progress.usage.timeToFirstToken = .now - progress.started }
                    progress.content += visible
                    show(progress.content)
                }
            case .finished(let summary):
                progress.usage.add(summary)
                stopReason = summary.stopReason
            }
        }
        progress.content += filter.finish()
        return Round(raw: raw, text: filter.removingThinking(from: raw), contentStart: contentStart, stopReason: stopReason)
    }

    /// The calls `round` wrote; none when calls were disallowed. A structured answer may hold
    /// the call trigger inside a string: only a round that starts with a call is one.
    private func toolCalls<Content>(in round: Round, mode: GenerationOptions.ToolCallingMode,
                                    answer: AnswerFormat<Content>) -> [ToolCallSyntax.ParsedCall] {
        let isCallRound = mode != .disallowed && (answer.schema == nil || round.text.hasPrefix(callSyntax.trigger))
        return isCallRound ? callSyntax.parseCalls(in: round.raw) : []
    }

    /// What a `.required` round must start with (the call's opening, and the tool's name when
    /// there is one tool), which the engine then decodes with the prompt instead of token by
    /// token; nothing when the round may think first or may answer.
    private func forcedPrefix(for progress: ResponseProgress) -> String {
        guard progress.mode == .required, !progress.grammars.toolNames.isEmpty,
              !(isThinkingEnabled && model.chatTemplate.toolLayout.thinking != nil) else { return "" }
        return callSyntax.forcedPrefix(toolNames: progress.grammars.toolNames)
    }

    /// `callingTools`: runs the round's calls and records them with their outputs, then chooses
    /// what the next round may do. Returns the round's calls of external tools, which were
    /// recorded and not run: when there are any, the response ends with them.
    private func callTools<Content>(_ calls: [ToolCallSyntax.ParsedCall], of round: Round, _ progress: inout ResponseProgress,
                                    prompt: Prompt, options: GenerationOptions, answer: AnswerFormat<Content>,
                                    show: (String) -> Void) async throws -> [Transcript.ToolCall] {
        progress.toolRounds += 1
        progress.ledger.recordText(of: round.text)
        let clock = ContinuousClock.now
        let (onlyRepeats, external) = try await ToolCallContext.$current.withValue(ToolCallContext(prompt: prompt)) {
            try await runTools(calls, rawText: callSyntax.trimmingIncompleteCall(round.text), ledger: &progress.ledger)
        }
        progress.usage.toolDuration += ContinuousClock.now - clock
        show(progress.content)
        guard external.isEmpty else { return external }
        // tools may narrow their arguments to what this round produced (fetch: the ids
        // the search just returned), so the grammar is compiled again
        let sources = ResponseSources(state.withLock { $0.transcript.entries[progress.transcriptStart...] })
        progress.grammars = try await RoundGrammars(tools: tools, prompt: prompt, answer: answer, syntax: callSyntax, options: options,
                                                    grounding: try await grounding(sources, options, question: prompt.text))
        if progress.mode == .required && options.requiredToolCallingExit == .relaxAfterFirstRound { progress.mode = .allowed }
        // at the round limit, or when the model only repeated itself, the next round must
        // answer from what the tools returned; only a model that still insists on calling fails
        if progress.toolRounds == maximumToolRounds || onlyRepeats { progress.mode = .disallowed }
        return []
    }

    /// `answering`: decodes `round` as the answer and records it in the transcript.
    private func record<Content>(_ round: Round, asAnswerTo progress: ResponseProgress,
                                 answer: AnswerFormat<Content>) throws -> (Content, GeneratedContent) {
        // the forced answer round produced only the start of another call
        if progress.mode == .disallowed && progress.toolRounds > 0 && answer.schema == nil && progress.content.count == round.contentStart {
            throw GenerationError.toolRoundLimitReached(rounds: progress.toolRounds)
        }
        let decoded = try answer.decode(progress.content, round.text)
        let text = answer.schema == nil ? String(progress.content.dropFirst(round.contentStart)) : round.text
        state.withLock { $0.transcript.append(.response(.init(id: $0.makeID("response"), text: text, truncation: round.truncation))) }
        return decoded
    }

    /// What the answer may rest on, ranked by `question` when the session has a ranker, with the
    /// answer style resolved for this model. A ranker that fails (its embedding model, say)
    /// leaves the evidence in the order shown: ranking improves an answer, it never stops one.
    private func grounding(_ sources: ResponseSources, _ options: GenerationOptions, question: String) async throws -> RoundGrammars.Grounding {
        var evidence = AnswerEvidence(unranked: sources)
        if let evidenceRanker, !sources.isEmpty {
            do {
                evidence = try await AnswerEvidence(sources, question: question, ranker: evidenceRanker)
            } catch is CancellationError {
                throw CancellationError()
            } catch {}
        }
        return .init(sources: sources, evidence: evidence, style: options.answerStyle.resolved(parameterCount: model.parameterCount),
                     citesSources: options.citesSources)
    }

    private func maximumTokens(_ options: GenerationOptions) -> Int {
        options.maximumResponseTokens ?? min(512, contextWindow.tokens / 4)
    }

    /// A call as the session will run it: a valid call, a repeat of one made earlier for this
    /// prompt, a call of an external tool (recorded, not run), or text that could not be read.
    private enum PendingCall: Sendable {
        case call(Transcript.ToolCall)
        case repeated(Transcript.ToolCall, earlierCallID: String)
        case external(Transcript.ToolCall)
        /// `id` names the error output (each entry of a transcript has its own id).
        case malformed(id: String, text: String, reason: String)
    }

    /// Records the calls, runs them concurrently (repeats aside, per `repeatedToolCallPolicy`,
    /// and calls of external tools, which the caller runs), and records their outputs in call
    /// order. Returns whether every call repeated one made before for this prompt, and the
    /// external calls.
    private func runTools(_ parsed: [ToolCallSyntax.ParsedCall], rawText: String,
                          ledger: inout CallLedger) async throws -> (onlyRepeats: Bool, external: [Transcript.ToolCall]) {
        let externalNames = Set(tools.filter(\.isExternal).map(\.name))
        let (pending, onlyRepeats): ([PendingCall], Bool) = state.withLock { state in
            let pending = parsed.map { call -> PendingCall in
                switch call {
                case .call(let name, let arguments):
                    let call = Transcript.ToolCall(id: state.makeID("call"), toolName: name, arguments: arguments)
                    // an external call is the caller's to run, however often the model asks
                    if externalNames.contains(name) { return .external(call) }
                    guard let earlier = ledger.earlierCall(matching: call), repeatedToolCallPolicy == .reuseEarlierOutput else { return .call(call) }
                    return .repeated(call, earlierCallID: earlier)
                case .malformed(let text, let reason):
                    return .malformed(id: state.makeID("malformed"), text: text, reason: reason)
                }
            }
            let calls = pending.compactMap { pending -> Transcript.ToolCall? in
                switch pending {
                case .call(let call), .repeated(let call, _), .external(let call): call
                case .malformed: nil
                }
            }
            // the model reads each output once: repeats stay out of the prompt
            let repeats = Set(pending.indices.filter { if case .repeated = pending[$0] { true } else { false } })
            let onlyRepeats = repeats.count == pending.count
            let promptText = onlyRepeats ? "" : callSyntax.removingCalls(at: repeats, from: rawText)
            state.transcript.append(.toolCalls(.init(id: state.makeID("calls"), calls: calls, rawText: promptText)))
            return (pending, onlyRepeats)
        }
        let external = pending.compactMap { if case .external(let call) = $0 { call } else { nil } }
        let outputs = try await withThrowingTaskGroup(of: (Int, Transcript.ToolOutput).self) { group in
            for (index, call) in pending.enumerated() {
                if case .external = call { continue }
                group.addTask { (index, Self.neutralized(try await self.output(for: call))) }
            }
            var outputs: [(Int, Transcript.ToolOutput)] = []
            for try await output in group { outputs.append(output) }
            return outputs.sorted { $0.0 < $1.0 }.map(\.1)
        }
        state.withLock { state in outputs.forEach { state.transcript.append(.toolOutput($0)) } }
        return (onlyRepeats, external)
    }

    /// `output` as the model may read it. Every tool's output, and every error text, enters the
    /// transcript through here: whatever a tool returns (a QR code's text, OCR of a photo of a
    /// prompt, a web page), it cannot spell `</tool_response>`, `<tool_call>` or a control token
    /// (`PromptMarkup`), and the prompt tokenizes it as plain text besides.
    static func neutralized(_ output: Transcript.ToolOutput) -> Transcript.ToolOutput {
        var output = output
        output.segments = output.segments.map { segment in
            guard case .text(var text) = segment else { return segment }
            text.content = PromptMarkup.neutralized(text.content)
            return .text(text)
        }
        return output
    }

    private func output(for pending: PendingCall) async throws -> Transcript.ToolOutput {
        let call: Transcript.ToolCall
        switch pending {
        case .malformed(let id, let text, let reason):
            return .init(id: id, toolName: "", text: "Error: \(reason). The call was: \(text)", isError: true)
        case .repeated(let repeated, let earlier):
            return .init(id: repeated.id, toolName: repeated.toolName, text: Self.repeatedCallNote, isError: false, repeatedCallID: earlier)
        case .call(let valid), .external(let valid):
            call = valid
        }
        guard let tool = tools.first(where: { $0.name == call.toolName }) else {
            let known = tools.map(\.name).joined(separator: ", ")
            return .init(id: call.id, toolName: call.toolName, text: "Error: there is no tool named \(call.toolName); the tools are \(known).", isError: true)
        }
        do {
            try Task.checkCancellation()
            let result = try await tool.call(call.arguments)
            return .init(id: call.id, toolName: call.toolName, text: result.text, structuredContent: result.structuredContent,
                         sources: result.sources, isError: false)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if toolErrorPolicy == .throwToCaller { throw ToolCallError(tool: tool.tool, underlyingError: error) }
            return .init(id: call.id, toolName: call.toolName, text: "Error: \(error)", isError: true)
        }
    }

    // MARK: Prompt, budget and grammar

    /// The system turn as the model reads it: the instructions, what the family's tool layout
    /// writes of the tools there (Hermes: all of them, in `<tools>` tags), and its thinking
    /// switch (Qwen3's `/no_think`).
    public var systemPrompt: String {
        model.chatTemplate.systemText(instructions: instructions, tools: toolDefinitions, thinking: isThinkingEnabled)
    }

    /// The system turn alone, as every prompt of this session starts: what `prewarm` decodes,
    /// and the fixed prefix whose state the model's `PromptCache` keeps between processes.
    private var systemTurn: RenderedPrompt {
        model.chatTemplate.renderedPrompt([ChatMessage(.system, systemPrompt)], tools: toolDefinitions, addAssistantPrefix: false)
    }

    /// The tools as the prompt describes them.
    private var toolDefinitions: [ToolDefinition] { tools.map(\.definition) }

    /// How the model's family spells calls.
    private var callSyntax: ToolCallSyntax { model.chatTemplate.toolLayout.callSyntax }

    private func conversation() throws -> any LanguageModelConversation {
        try state.withLock { state in
            if let conversation = state.conversation { return conversation }
            do {
                let conversation = try model.makeConversation(window: contextWindow)
                state.conversation = conversation
                return conversation
            } catch let error as LocalModelError {
                throw GenerationError.engineFailure(error)
            }
        }
    }

    /// Renders the transcript, checks it against the window, and trims the oldest tool outputs
    /// and turns if it does not fit. Throws before any decode when even the essentials don't.
    private func renderPrompt(reservedAnswerTokens: Int) async throws -> RenderedPrompt {
        let transcript = self.transcript
        let counter = model.tokenCounter
        var texts = Dictionary(uniqueKeysWithValues: transcript.map { ($0.id, $0.text) })
        func render() -> RenderedPrompt {
            model.chatTemplate.renderedPrompt(messages(transcript, texts: texts), tools: toolDefinitions, thinking: isThinkingEnabled)
        }
        var prompt = render()
        let request = budgetRequest(transcript, texts: texts, rendered: prompt.text, reservedAnswerTokens: reservedAnswerTokens)
        do {
            var report = try BudgetReport(for: request, in: contextWindow, counter: counter)
            if !report.fits {
                let trimmed = try trimmingPolicy.trim(request, toFit: contextWindow, counter: counter)
                let kept = Dictionary(uniqueKeysWithValues: trimmed.request.transcript.map { ($0.id, $0.text) })
                texts = texts.filter { id, _ in kept[id] != nil || isEssential(id, in: transcript) }.merging(kept) { $1 }
                prompt = render()
                report = trimmed.report
            }
            state.withLock { $0.lastBudget = report }
            try report.enforce()
            return prompt
        } catch let error as TokenBudgetError {
            throw GenerationError.exceededContextWindowSize(error)
        }
    }

    /// Throws unless every entry has an id of its own, and the only instructions are the
    /// session's (first): what a history given to `init` must hold for prompts to be rendered.
    static func checkHistory(_ transcript: Transcript) throws(GenerationError) {
        var seen = Set<String>()
        for (index, entry) in transcript.enumerated() {
            if case .instructions = entry, index > 0 {
                throw .invalidHistory("entry \(entry.id) is instructions; give them as the session's instructions, not in its history")
            }
            guard seen.insert(entry.id).inserted else {
                throw .invalidHistory("two entries have the id \(entry.id); give each its own")
            }
        }
    }

    /// The instructions and the newest prompt are never trimmed.
    private func isEssential(_ id: String, in transcript: Transcript) -> Bool {
        guard let entry = transcript.first(where: { $0.id == id }) else { return false }
        if case .instructions = entry { return true }
        return transcript.last(where: { if case .prompt = $0 { true } else { false } })?.id == id
    }

    /// Whether an entry goes into the prompt: not a repeated call's output (its earlier output is
    /// there already), nor a turn whose calls all repeated earlier ones.
    private static func isPrompted(_ entry: Transcript.Entry) -> Bool {
        switch entry {
        case .toolOutput(let output): output.repeatedCallID == nil
        case .toolCalls(let turn): !turn.rawText.isEmpty
        case .instructions, .prompt, .response: true
        }
    }

    /// The transcript as chat messages. The user's prompt (unless its options say otherwise) and
    /// tool outputs are content the tokenizer reads as plain text; the instructions and the
    /// model's own turns are read with their markup.
    private func messages(_ transcript: Transcript, texts: [String: String]) -> [ChatMessage] {
        transcript.compactMap { entry in
            guard Self.isPrompted(entry), let text = texts[entry.id] else { return nil }
            switch entry {
            case .instructions: return ChatMessage(.system, systemPrompt)
            case .prompt(let prompt): return ChatMessage(.user, text, parsesSpecialTokens: prompt.options.parsesSpecialTokensInPrompt)
            case .toolCalls: return ChatMessage(.assistant, text)
            case .toolOutput: return ChatMessage(.tool, text, parsesSpecialTokens: false)
            case .response: return ChatMessage(.assistant, text)
            }
        }
    }

    private func budgetRequest(_ transcript: Transcript, texts: [String: String], rendered: String, reservedAnswerTokens: Int) -> BudgetRequest {
        let newest = transcript.last { if case .prompt = $0 { true } else { false } }
        let entries: [BudgetRequest.Entry] = transcript.compactMap { entry in
            guard entry.id != newest?.id, Self.isPrompted(entry), let text = texts[entry.id] else { return nil }
            switch entry {
            case .instructions: return nil
            case .prompt: return .init(id: entry.id, kind: .prompt, text: text)
            case .toolCalls: return .init(id: entry.id, kind: .toolCalls, text: text)
            case .toolOutput: return .init(id: entry.id, kind: .toolOutput, text: text)
            case .response: return .init(id: entry.id, kind: .response, text: text)
            }
        }
        return BudgetRequest(
            instructions: model.chatTemplate.systemText(instructions: instructions, tools: [], thinking: isThinkingEnabled),
            tools: tools.map { tool in
                .init(name: tool.name, description: tool.description,
                      schema: tool.includesSchemaInInstructions ? tool.parameters.jsonSchema.pythonStyleJSON() : "")
            },
            templateOverhead: .renderedPrompt(rendered),
            transcript: entries,
            prompt: newest?.text ?? "",
            reservedAnswerTokens: reservedAnswerTokens)
    }

    /// The grammar for this round. Free text: lazy (triggered by the family's call trigger,
    /// `<tool_call>` in Hermes) when calls are allowed; after tool outputs with sources, also
    /// triggered by a citation's `[` (prose) or active from the first token (quotes). A
    /// structured answer: the answer's grammar when calls are disallowed, a call or the answer
    /// when allowed. Required: calls only. All but the lazy ones are active from the first token
    /// (from after the think block's close when thinking).
    private func grammar(for mode: GenerationOptions.ToolCallingMode, _ grammars: RoundGrammars) -> GrammarConstraint? {
        let chosen: Grammar?
        switch mode {
        case .disallowed:
            chosen = grammars.answer
            if let trigger = grammars.answerTrigger, let chosen { return lazy(chosen, triggers: [trigger]) }
        case .allowed:
            // a text answer's calls start at the trigger or, written bare, at the object's opening
            let callTriggers = [callSyntax.trigger] + [callSyntax.bareCallOpening].compactMap { $0 }
            guard let answerOrCalls = grammars.answerOrToolCalls else {
                guard let calls = grammars.toolCalls else { return nil }
                return lazy(calls, triggers: callTriggers)
            }
            if let trigger = grammars.answerTrigger { return lazy(answerOrCalls, triggers: callTriggers + [trigger]) }
            chosen = answerOrCalls
        case .required:
            chosen = grammars.toolCalls
        }
        guard let chosen else { return nil }
        if isThinkingEnabled, let thinking = model.chatTemplate.toolLayout.thinking {
            return GrammarConstraint(gbnf: chosen.gbnf, root: chosen.root,
                                     activation: .lazy(triggers: [thinking.close], grammarIncludesTrigger: false, tokens: []))
        }
        return GrammarConstraint(gbnf: chosen.gbnf, root: chosen.root)
    }

    /// `grammar` started by the first of `triggers` (each also as a single token, where the
    /// vocabulary has one).
    private func lazy(_ grammar: Grammar, triggers: [String]) -> GrammarConstraint {
        .lazy(gbnf: grammar.gbnf, root: grammar.root, triggers: triggers, triggerTokens: triggers.flatMap(model.singleTokens(spelling:)))
    }
}
