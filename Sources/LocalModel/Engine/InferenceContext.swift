import Foundation

/// What one generation call asks of the engine.
public struct GenerationParameters: Sendable, Hashable {
    public var sampling: SamplingOptions
    /// The most tokens to generate before stopping.
    public var maximumTokens: Int
    /// Generation ends when the output contains one of these; the stop string is not emitted.
    public var stopStrings: [String]
    /// An optional grammar every generated token must fit.
    public var grammar: GrammarConstraint?
    /// Generation ends right after a span that repeats an earlier one (a looping tool call).
    public var repeatedSpanStop: RepeatedSpanStop?
    /// Generation ends when the text ends in one span written several times (a looping answer).
    public var repeatedTextStop: RepeatedTextStop?
    /// Texts the output may not begin with, whitespace aside (`ForbiddenOpenings`): the tokens
    /// that would write one are masked while the output could still become one.
    public var forbiddenOpenings: [String]
    /// Whether the output must hold text before it may end: until a token writes something
    /// other than whitespace, and while the output may still become one of `forbiddenOpenings`
    /// (a response filter hides such a start as a call), the tokens that end or frame a turn
    /// are masked (a lazy grammar's trigger tokens excepted: a call may still begin).
    /// An answer round sets it, so a model that would rather call again (Qwen2.5-Coder-1.5B
    /// wrote `<tool_call` or stopped at once) answers instead of leaving the user an empty
    /// response.
    public var requiresText: Bool
    /// Whether control tokens (such as `<think>`) appear in the text.
    public var renderSpecialTokens: Bool
    /// Whether an end-of-generation token ends the output. Benchmarks turn this off to
    /// generate an exact number of tokens, as `llama-bench` does.
    public var stopsAtEndOfGeneration: Bool
    /// Text the output must begin with because the grammar leaves no choice there (a call's
    /// `<tool_call>\n{"name": "search", "arguments": ` when one tool is required). Its tokens
    /// are decoded in the prompt's batch instead of one forward pass each, fed to the grammar,
    /// and emitted as the output's start. Generated normally when the grammar refuses them.
    public var forcedPrefix: String
    /// The start of the prompt that stays the same from session to session (a session's system
    /// turn: instructions and tool definitions), tokenized as the prompt is. Its tokens are
    /// decoded in batches of their own, so the state after them can be kept: with the model's
    /// `PromptCache` on, a context that does not hold them loads their saved state instead of
    /// decoding them, and saves it when it had to decode them. Only the part the prompt's tokens
    /// start with counts; nil decodes the prompt as one.
    public var fixedPrefix: RenderedPrompt?

    public init(sampling: SamplingOptions = .greedy, maximumTokens: Int = 512, stopStrings: [String] = [],
                grammar: GrammarConstraint? = nil, repeatedSpanStop: RepeatedSpanStop? = nil, repeatedTextStop: RepeatedTextStop? = nil,
                forbiddenOpenings: [String] = [], requiresText: Bool = false, renderSpecialTokens: Bool = true,
                stopsAtEndOfGeneration: Bool = true, forcedPrefix: String = "", fixedPrefix: RenderedPrompt? = nil) {
        self.sampling = sampling
        self.maximumTokens = maximumTokens
        self.stopStrings = stopStrings
        self.grammar = grammar
        self.repeatedSpanStop = repeatedSpanStop
        self.repeatedTextStop = repeatedTextStop
        self.forbiddenOpenings = forbiddenOpenings
        self.requiresText = requiresText
        self.renderSpecialTokens = renderSpecialTokens
        self.stopsAtEndOfGeneration = stopsAtEndOfGeneration
        self.forcedPrefix = forcedPrefix
        self.fixedPrefix = fixedPrefix
    }
}

/// One item of a generation stream: text as it is produced, then a summary.
public enum GenerationEvent: Sendable, Hashable {
    /// New text, always whole UTF-8 characters.
    case text(String)
    /// The last event of a stream that ended without error.
    case finished(GenerationSummary)
}

/// Why generation stopped, and what it cost.
public struct GenerationSummary: Sendable, Hashable {
    public enum StopReason: Sendable, Hashable {
        case endOfGeneration
        case stopString(String)
        case maximumTokens
        case contextFull
        /// The output repeated a call (`GenerationParameters.repeatedSpanStop`) or ended in one
        /// span written several times (`GenerationParameters.repeatedTextStop`).
        case repeatedSpan
    }

    public var stopReason: StopReason
    /// Tokens in the prompt.
    public var promptTokens: Int
    /// Prompt tokens that were already in the KV cache and were not decoded again.
    public var reusedTokens: Int
    /// Of `reusedTokens`, those whose state was loaded from disk (`PromptCache`) for this
    /// generation rather than held from an earlier one.
    public var restoredTokens: Int
    /// Why a saved prompt state was not loaded or not saved (a damaged file, a full disk); the
    /// prompt was decoded in full then, so the output is a cold start's.
    public var promptStateNotes: [PromptStateNote]
    /// Tokens of the output, `forcedTokens` included.
    public var generatedTokens: Int
    /// Of `generatedTokens`, those of `GenerationParameters.forcedPrefix`, decoded with the prompt.
    public var forcedTokens: Int
    /// Time spent decoding the new part of the prompt (and the forced prefix).
    public var prefillDuration: Duration
    /// Time from the end of prefill to the end of generation.
    public var generationDuration: Duration
    /// Time from the call to the first generated text.
    public var timeToFirstToken: Duration?

    /// Public so that a `LanguageModelConversation` of another backend can end its stream.
    public init(stopReason: StopReason, promptTokens: Int, reusedTokens: Int, restoredTokens: Int = 0, promptStateNotes: [PromptStateNote] = [],
                generatedTokens: Int, forcedTokens: Int = 0, prefillDuration: Duration, generationDuration: Duration, timeToFirstToken: Duration?) {
        self.stopReason = stopReason
        self.promptTokens = promptTokens
        self.reusedTokens = reusedTokens
        self.restoredTokens = restoredTokens
        self.promptStateNotes = promptStateNotes
        self.generatedTokens = generatedTokens
        self.forcedTokens = forcedTokens
        self.prefillDuration = prefillDuration
        self.generationDuration = generationDuration
        self.timeToFirstToken = timeToFirstToken
    }
}

/// Running totals for one context, so tests and benchmarks can see the prefix cache at work.
public struct EngineCounters: Sendable, Hashable {
    /// Tokens run through `llama_decode` (prompt suffixes and generated tokens).
    public var tokensDecoded = 0
    /// Prompt tokens skipped because the cache already held them.
    public var tokensReused = 0
    /// Of `tokensReused`, those whose state was loaded from disk (`PromptCache`).
    public var tokensRestored = 0
    /// Tokens sampled.
    public var tokensGenerated = 0
    /// Time inside `llama_decode` for those tokens (with concurrent sessions, the whole batch
    /// that held them): the engine's share of a generation's time; the rest is Lantern's own
    /// work between decodes (sampling, grammar, the hand-offs to and from the engine thread).
    public var decodeDuration = Duration.zero

    /// Public so that a `LanguageModelConversation` of another backend can keep its own.
    public init() {}
}

/// One conversation's llama.cpp context: its KV cache, and generation over it.
///
/// An actor whose calls take turns, so one generation runs at a time per context. The cache
/// remembers which tokens it holds; a prompt that starts with them decodes only the new suffix
/// (sessions re-send the whole transcript each turn, so this is what makes the second question
/// fast). The cache is one sequence of a `SharedContext`: when the model runs several sessions
/// in one llama.cpp context (`LocalModel.Configuration.parallelSessions`), their decodes go in
/// one batch.
public actor InferenceContext {
    public nonisolated let model: LocalModel
    /// Size of the context window in tokens.
    public nonisolated let size: Int
    private let shared: SharedContext
    private let sequence: Int32
    private var cachedTokens: [Token] = []
    /// Totals since the context was made.
    public private(set) var counters = EngineCounters()
    /// Whether a generation, prefill or reset holds the context; they await the shared batch,
    /// and the actor alone would let another call in at each of those waits.
    private var busy = false
    private var waitingForTurn: [CheckedContinuation<Void, Never>] = []

    /// Every context runs on the engine's own thread (see `EngineThread` for why).
    public nonisolated var unownedExecutor: UnownedSerialExecutor { EngineThread.shared.asUnownedSerialExecutor() }

    init(model: LocalModel, shared: SharedContext, sequence: Int32) {
        self.model = model
        self.size = shared.size
        self.shared = shared
        self.sequence = sequence
    }

    deinit { shared.release(sequence) }

    /// Tokens the KV cache currently holds.
    public var cachedTokenCount: Int { cachedTokens.count }

    /// Generates from `prompt` (rendered text; control-token markup is parsed).
    public nonisolated func generate(prompt: String, parameters: GenerationParameters = GenerationParameters())
        -> AsyncThrowingStream<GenerationEvent, any Error>
    {
        generate(parameters: parameters) { [model] () throws(LocalModelError) in
            try model.tokenizer.tokenize(prompt, addSpecial: true, parseSpecial: true)
        }
    }

    /// Generates from a rendered prompt: markup runs with control tokens parsed, content runs
    /// (the user's text, tool outputs) as plain text.
    public nonisolated func generate(prompt: RenderedPrompt, parameters: GenerationParameters = GenerationParameters())
        -> AsyncThrowingStream<GenerationEvent, any Error>
    {
        generate(parameters: parameters) { [model] () throws(LocalModelError) in
            try model.tokenizer.tokenize(prompt, addSpecial: true)
        }
    }

    /// Generates from prompt tokens as they are (no beginning-of-sequence token is added).
    public nonisolated func generate(tokens: [Token], parameters: GenerationParameters = GenerationParameters())
        -> AsyncThrowingStream<GenerationEvent, any Error>
    {
        generate(parameters: parameters) { tokens }
    }

    private nonisolated func generate(parameters: GenerationParameters, tokens makeTokens: @escaping @Sendable () throws(LocalModelError) -> [Token])
        -> AsyncThrowingStream<GenerationEvent, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream<GenerationEvent, any Error>.makeStream()
        let task = Task {
            do {
                let tokens = try makeTokens()
                let summary = try await self.generate(prompt: tokens, parameters: parameters) { continuation.yield(.text($0)) }
                continuation.yield(.finished(summary))
                continuation.finish()
            } catch {
                continuation.finish(throwing: Task.isCancelled ? LocalModelError.cancelled : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Decodes `prompt` into the cache without generating, so a later prompt that starts with
    /// it begins at once. Returns how many tokens were reused rather than decoded.
    @discardableResult
    public nonisolated func prefill(prompt: String) async throws(LocalModelError) -> Int {
        try await prefill(tokens: model.tokenizer.tokenize(prompt, addSpecial: true, parseSpecial: true))
    }

    /// `prefill(prompt:)` for a rendered prompt, tokenized as `generate(prompt:)` tokenizes it,
    /// as a fixed prefix (`GenerationParameters.fixedPrefix`): with the model's `PromptCache`
    /// its saved state is loaded instead of decoded, or saved once decoded, so a session's
    /// `prewarm` in a new process costs a load from disk.
    @discardableResult
    public nonisolated func prefill(prompt: RenderedPrompt) async throws(LocalModelError) -> Int {
        let tokens = try model.tokenizer.tokenize(prompt, addSpecial: true)
        return try await prefill(tokens: tokens, fixedPrefix: tokens.count)
    }

    /// `prefill(prompt:)` for tokens as they are; the first `fixedPrefix` of them as
    /// `generate` reads its fixed prefix.
    @discardableResult
    public func prefill(tokens: [Token], fixedPrefix: Int = 0) async throws(LocalModelError) -> Int {
        await takeTurn()
        defer { endTurn() }
        return try await ingest(tokens, fixedPrefix: fixedPrefix, keepLastForLogits: false).reused
    }

    /// Forgets everything in the cache.
    public func reset() async {
        await takeTurn()
        defer { endTurn() }
        shared.clear(sequence)
        cachedTokens = []
    }

    /// Waits until no other generation, prefill or reset holds the context, then holds it;
    /// callers take turns in the order they came.
    private func takeTurn() async {
        guard busy else { busy = true; return }
        await withCheckedContinuation { waitingForTurn.append($0) }
    }

    /// Hands the context to the next caller waiting, if any.
    private func endTurn() {
        if waitingForTurn.isEmpty { busy = false } else { waitingForTurn.removeFirst().resume() }
    }

    private func generate(prompt: [Token], parameters: GenerationParameters, emit: @Sendable (String) -> Void) async throws(LocalModelError) -> GenerationSummary {
        await takeTurn()
        defer { endTurn() }
        let start = ContinuousClock.now
        let sampler = try LlamaSampler(model: model.handle, options: parameters.sampling, grammar: parameters.grammar)
        let forced = try forcedTokens(parameters, sampler: sampler, after: prompt.count)
        let fixed = try parameters.fixedPrefix.map { prefix throws(LocalModelError) in try model.tokenizer.tokenize(prefix, addSpecial: true) } ?? []
        let ingested = try await ingest(prompt + forced, fixedPrefix: zip(fixed, prompt).prefix { $0 == $1 }.count, keepLastForLogits: true)
        guard var logits = ingested.logits else { throw SharedContext.missingLogits }
        let prefillEnd = ContinuousClock.now
        var assembler = GeneratedTextAssembler(stopStrings: parameters.stopStrings)
        var repeatWatch = parameters.repeatedSpanStop.map(RepeatedSpanStop.Watch.init)
        var loopWatch = parameters.repeatedTextStop.map(RepeatedTextStop.Watch.init)
        var openingWatch = ForbiddenOpenings(parameters.forbiddenOpenings)
        // with `requiresText`, whether the output holds text yet (whitespace aside); a lazy
        // grammar's trigger tokens (a call's one-token opening) stay open to the model
        var wroteText = !parameters.requiresText
        let callTokens: Set<Token> = if case .lazy(_, _, let tokens)? = parameters.grammar?.activation { Set(tokens) } else { [] }
        var firstText: ContinuousClock.Instant?
        var generated = 0
        var stopReason = GenerationSummary.StopReason.maximumTokens

        func send(_ text: String) {
            guard !text.isEmpty else { return }
            if firstText == nil { firstText = .now }
            emit(text)
        }

        for token in forced {
            try sampler.accept(token)
            generated += 1
            let piece = model.handle.pieceBytes(token, renderSpecial: parameters.renderSpecialTokens)
            let (text, stop) = assembler.append(piece)
            send(text)
            _ = repeatWatch?.repeats(after: text)
            _ = loopWatch?.repeats(after: text)
            openingWatch.record(piece)
            wroteText = wroteText || piece.contains { !ForbiddenOpenings.isWhitespace($0) }
            if let stop {
                stopReason = .stopString(stop)
                break
            }
        }

        while stopReason == .maximumTokens && generated < parameters.maximumTokens {
            if Task.isCancelled { throw .cancelled }
            if cachedTokens.count >= size { stopReason = .contextFull; break }
            if openingWatch.isWatching {
                for forbidden in openingWatch.forbiddenTokens(model.handle.compactPieces) { logits[Int(forbidden)] = -.infinity }
            }
            // text that may still become a forbidden opening is hidden as a call would be: it is no answer yet
            if !wroteText || parameters.requiresText && openingWatch.isWatching {
                for token in model.handle.turnTokens where !callTokens.contains(token) { logits[Int(token)] = -.infinity }
            }
            let token = try sampler.sample(from: logits)
            try sampler.accept(token)
            generated += 1
            counters.tokensGenerated += 1
            if parameters.stopsAtEndOfGeneration && model.handle.isEndOfGeneration(token) {
                stopReason = .endOfGeneration
                break
            }
            let piece = model.handle.pieceBytes(token, renderSpecial: parameters.renderSpecialTokens)
            openingWatch.record(piece)
            wroteText = wroteText || piece.contains { !ForbiddenOpenings.isWhitespace($0) }
            let (text, stop) = assembler.append(piece)
            send(text)
            if let stop { stopReason = .stopString(stop); break }
            if repeatWatch?.repeats(after: text) == true || loopWatch?.repeats(after: text) == true { stopReason = .repeatedSpan; break }
            // the last token is not decoded: nothing would read its logits
            if generated == parameters.maximumTokens { break }
            guard let next = try await append([token][...], wantsLogits: true) else { throw SharedContext.missingLogits }
            logits = next
        }
        if case .stopString = stopReason {} else { send(assembler.finish()) }
        let end = ContinuousClock.now
        return GenerationSummary(
            // the forced prefix is ingested with the prompt, and a cache holding it from the
            // round before reuses it too, but its tokens are output: they count as generated
            stopReason: stopReason, promptTokens: prompt.count, reusedTokens: min(ingested.reused, prompt.count), restoredTokens: ingested.restored,
            promptStateNotes: ingested.notes, generatedTokens: generated, forcedTokens: forced.count,
            prefillDuration: prefillEnd - start, generationDuration: end - prefillEnd,
            timeToFirstToken: firstText.map { $0 - start })
    }

    /// The tokens of the forced prefix when the grammar takes every one of them and they fit
    /// the window and the token limit; none otherwise (the prefix is then generated as usual).
    /// The prefix's last token is left to the model: the text may end where the model would
    /// write one token across the cut (`": ` then `{` as ` {`), and a boundary it did not
    /// choose changes what it writes next.
    private func forcedTokens(_ parameters: GenerationParameters, sampler: LlamaSampler, after promptCount: Int) throws(LocalModelError) -> [Token] {
        guard !parameters.forcedPrefix.isEmpty else { return [] }
        let tokens = Array(try model.tokenizer.tokenize(parameters.forcedPrefix, addSpecial: false, parseSpecial: true).dropLast())
        guard tokens.count < parameters.maximumTokens, promptCount + tokens.count < size, sampler.accepts(tokens) else { return [] }
        return tokens
    }

    /// Brings the cache to hold exactly `tokens`, decoding only what differs from what it
    /// holds; how many were reused (and of them restored from disk), notes on saved states, and
    /// with `keepLastForLogits` the logits of the last token (which is then decoded even when
    /// the cache held it, so they are fresh for sampling).
    ///
    /// The first `fixedPrefix` tokens are decoded apart from the rest, so the state after them
    /// can be kept (`PromptCache`): when the cache holds less of them, their saved state is
    /// loaded instead, and when they had to be decoded, their state is saved. Apart whether or
    /// not the cache is on, so a cold and a warm start decode the rest in the same batches and
    /// write the same output.
    private func ingest(_ tokens: [Token], fixedPrefix: Int = 0, keepLastForLogits: Bool) async throws(LocalModelError)
        -> (reused: Int, restored: Int, notes: [PromptStateNote], logits: [Float]?)
    {
        guard tokens.count < size else { throw .promptTooLong(promptTokens: tokens.count, window: size) }
        var common = zip(cachedTokens, tokens).prefix { $0 == $1 }.count
        var notes: [PromptStateNote] = []
        var restored = 0
        var savedStateKey: PromptStateKey?
        if common < fixedPrefix, let store = model.promptStates {
            switch store.key(for: Array(tokens[..<fixedPrefix]), contextLayout: shared.stateLayout) {
            case .failure(let note):
                notes.append(note)
            case .success(let key):
                savedStateKey = key
                let outcome = restore(key, from: store)
                if outcome.restored { (common, restored) = (fixedPrefix, fixedPrefix) }
                if let note = outcome.note { notes.append(note) }
            }
        }
        if keepLastForLogits && common == tokens.count { common -= 1 }
        if common < cachedTokens.count {
            if !shared.removeTokens(of: sequence, from: common) {
                shared.clear(sequence)
                common = 0
            }
            cachedTokens.removeSubrange(common...)
        }
        restored = min(restored, common)
        counters.tokensReused += common
        counters.tokensRestored += restored
        var logits: [Float]?
        while cachedTokens.count < tokens.count {
            if Task.isCancelled { throw .cancelled }
            let stop = cachedTokens.count < fixedPrefix ? fixedPrefix : tokens.count
            let end = min(cachedTokens.count + shared.batchSize, stop)
            logits = try await append(tokens[cachedTokens.count..<end], wantsLogits: keepLastForLogits && end == tokens.count)
            if end == fixedPrefix, let key = savedStateKey, let note = save(key) { notes.append(note) }
        }
        return (common, restored, notes, logits)
    }

    /// Loads the state saved for `key` into the sequence, when the store has a good one; the
    /// note when it had one it could not use (removed then, and the sequence left empty).
    private func restore(_ key: PromptStateKey, from store: PromptStateStore) -> (restored: Bool, note: PromptStateNote?) {
        switch store.load(key) {
        case .missing:
            return (false, nil)
        case .damaged(let note):
            return (false, note)
        case .found(let state):
            cachedTokens = []
            guard shared.restore(state, into: sequence) else {
                return (false, store.discard(key, reason: "llama.cpp refused it for this context"))
            }
            cachedTokens = key.tokens
            return (true, nil)
        }
    }

    /// Saves the state of the sequence, which holds `key`'s tokens, unless the store has it
    /// already; the note when it could not.
    private func save(_ key: PromptStateKey) -> PromptStateNote? {
        guard let store = model.promptStates, !store.contains(key) else { return nil }
        guard let state = shared.state(of: sequence) else {
            return .notSaved(folder: store.folder.path, reason: "llama.cpp wrote no state for the sequence")
        }
        return store.save(state, for: key)
    }

    /// Decodes `tokens` after what the cache holds (in the shared batch) and records them; the
    /// logits of the last one when `wantsLogits`. On failure the cache may hold part of them,
    /// so it is cleared to start clean next time.
    private func append(_ tokens: ArraySlice<Token>, wantsLogits: Bool) async throws(LocalModelError) -> [Float]? {
        do {
            let decoded = try await shared.decode(tokens, sequence: sequence, position: cachedTokens.count, wantsLogits: wantsLogits)
            cachedTokens.append(contentsOf: tokens)
            counters.tokensDecoded += tokens.count
            counters.decodeDuration += decoded.duration
            return decoded.logits
        } catch {
            shared.clear(sequence)
            cachedTokens = []
            throw error
        }
    }
}
