import CLlama
import Foundation

/// A sampler chain plus an optional grammar, sampled the way llama.cpp's own `common_sampler`
/// does: sample with the chain first, check only the chosen token against the grammar, and
/// mask the whole vocabulary only when that token is rejected. Masking 49k tokens every step
/// halves generation speed; checking one token costs almost nothing.
final class LlamaSampler {
    private let chain: SamplerPointer
    private let grammar: SamplerPointer?
    /// The grammar's source, to check the text that triggers a lazy grammar before feeding it.
    private let constraint: GrammarConstraint?
    private let model: LlamaModelHandle
    private var candidates: [llama_token_data]
    /// Set while a lazy grammar waits for its trigger (see `TriggerWatch`).
    private var triggerWatch: TriggerWatch?
    /// What `sample` learned about the token it chose while a lazy grammar waits (the watch
    /// after it, and whether it completes the trigger), so `accept` does not work it out again.
    private var checkedToken: (token: Token, watch: TriggerWatch, trigger: Trigger?)?
    /// The token `sample` returned after checking it against the active grammar, so `accept`
    /// does not check it again.
    private var grammarCheckedToken: Token?
    /// Where the grammar's output stands in UTF-8, and the tokens that can move it (see
    /// `UTF8Continuation`): under a grammar every token keeps the output valid UTF-8.
    private var utf8 = UTF8Continuation()
    private let bytePieces: LlamaModelHandle.BytePieces

    /// A completed trigger: the tokens to feed the grammar, and whether it can take them.
    private typealias Trigger = (tokens: [Token], startsGrammar: Bool)
    /// For greedy decoding with a grammar: sorts out the best `greedyWindow` candidates, among
    /// which the grammar's choice is usually found (see `greedyAmongBest`).
    private let bestCandidates: SamplerPointer?
    /// Whether the chain is llama.cpp's greedy sampler alone (no penalties): its choice is then
    /// the first highest logit, found without filling 49k candidates each token.
    private let chainIsGreedyOnly: Bool

    static let greedyWindow = 512
    /// Candidates masked per grammar call when the whole vocabulary must be checked.
    static let maskChunk = 4_096

    init(model: LlamaModelHandle, options: SamplingOptions, grammar constraint: GrammarConstraint?) throws(LocalModelError) {
        self.model = model
        self.constraint = constraint
        self.grammar = try constraint.map { constraint throws(LocalModelError) in
            try LlamaGrammar.make(model: model, constraint: constraint)
        }
        if case .lazy(let triggers, _, let tokens)? = constraint?.activation {
            triggerWatch = TriggerWatch(triggers: triggers, tokens: Set(tokens))
        }
        let chain = llama_sampler_chain_init(llama_sampler_chain_default_params())!
        if options.repetitionPenalty != 1 {
            llama_sampler_chain_add(chain, llama_sampler_init_penalties(Int32(model.vocabularySize), Int32(options.repetitionWindow), options.repetitionPenalty, 0, 0))
        }
        switch options.mode {
        case .greedy:
            llama_sampler_chain_add(chain, llama_sampler_init_greedy())
        case .random(let topK, let topP, let minP, let temperature, let seed):
            if let topK { llama_sampler_chain_add(chain, llama_sampler_init_top_k(Int32(topK))) }
            if let topP { llama_sampler_chain_add(chain, llama_sampler_init_top_p(topP, 1)) }
            if let minP { llama_sampler_chain_add(chain, llama_sampler_init_min_p(minP, 1)) }
            llama_sampler_chain_add(chain, llama_sampler_init_temp(temperature))
            llama_sampler_chain_add(chain, llama_sampler_init_dist(seed))
        }
        self.chain = chain
        if case .greedy = options.mode { chainIsGreedyOnly = options.repetitionPenalty == 1 } else { chainIsGreedyOnly = false }
        if case .greedy = options.mode, grammar != nil {
            bestCandidates = llama_sampler_init_top_k(Int32(Self.greedyWindow))
        } else {
            bestCandidates = nil
        }
        self.candidates = []
        self.candidates.reserveCapacity(model.vocabularySize)
        self.bytePieces = constraint == nil ? .init() : model.bytePieces
    }

    deinit {
        llama_sampler_free(chain)
        if let grammar { llama_sampler_free(grammar) }
        if let bestCandidates { llama_sampler_free(bestCandidates) }
    }


    /// Picks the next token from the logits of the last position decoded.
    ///
    /// Under an active grammar the token is one the grammar accepts, always: llama.cpp aborts the
    /// process when its grammar is handed a token it rejects (an end-of-generation token before
    /// the grammar is complete is `llama-grammar.cpp: fatal error`). Throws `.noTokenAllowed`
    /// when the grammar allows no token with a usable score (a damaged model's logits are NaN).
    func sample(from logits: [Float]) throws(LocalModelError) -> Token {
        let chosen: Token
        if chainIsGreedyOnly {
            chosen = Self.firstHighest(logits)
        } else {
            fillCandidates(logits)
            chosen = applyAndSelect(chain)
        }
        // A lazy grammar constrains nothing before its trigger, except the token that completes it.
        if let watch = triggerWatch { return validTriggering(chosen, watch: watch, logits: logits) }
        guard let grammar else { return chosen }
        // allowed first: keepsUTF8 feeds a copy of the grammar, which llama.cpp aborts on once
        // the grammar is complete
        if LlamaGrammar.allows(grammar, chosen, logit: 1), keepsUTF8(chosen) { return grammarChecked(chosen) }
        if let bestCandidates {
            fillCandidates(logits)
            if let token = greedyAmongBest(grammar, bestCandidates) { return grammarChecked(token) }
        }
        fillCandidates(logits)
        maskDisallowed(grammar)
        return grammarChecked(try bestAllowed(grammar))
    }

    private func grammarChecked(_ token: Token) -> Token {
        grammarCheckedToken = token
        return token
    }

    /// The chain's choice among the candidates `maskDisallowed` left, checked against the
    /// grammar, or the highest-scored allowed one if the chain picked another. A candidate the
    /// grammar allows but the model scored NaN has no usable score and is left out; when none is
    /// left and the grammar may end here, generation ends.
    private func bestAllowed(_ grammar: SamplerPointer) throws(LocalModelError) -> Token {
        var best: (token: Token, logit: Float)?
        var unscored = 0
        for index in candidates.indices {
            let logit = candidates[index].logit
            if logit.isNaN {
                candidates[index].logit = -.infinity
                unscored += 1
            } else if logit > -.infinity, best.map({ logit > $0.logit }) ?? true {
                best = (candidates[index].id, logit)
            }
        }
        guard let best else {
            if let end = model.endOfSequence ?? model.endOfTurn, LlamaGrammar.allows(grammar, end, logit: 0), keepsUTF8(end) { return end }
            if unscored > 0 {
                throw .noTokenAllowed(reason: "the model scores every token the grammar allows as NaN, so its weights are damaged; download the model again and check its sha256")
            }
            throw .noTokenAllowed(reason: "the grammar allows no token of this model's vocabulary here; check the grammar, or the schema it was compiled from")
        }
        if let token = select(chain, in: &candidates)?.token, LlamaGrammar.allows(grammar, token, logit: 1), keepsUTF8(token) { return token }
        return best.token
    }

    /// Greedy decoding's choice under the grammar, looked for among the `greedyWindow` highest
    /// logits only (checking 512 candidates instead of 49k), or nil when those cannot prove it:
    /// none is allowed, or the best allowed one, after the chain's penalties (which only lower
    /// logits), scores below the window's lowest raw logit, which a token outside could match.
    private func greedyAmongBest(_ grammar: SamplerPointer, _ bestCandidates: SamplerPointer) -> Token? {
        var window = candidates.withUnsafeMutableBufferPointer { buffer -> [llama_token_data] in
            var array = llama_token_data_array(data: buffer.baseAddress, size: buffer.count, selected: -1, sorted: false)
            llama_sampler_apply(bestCandidates, &array)
            return Array(UnsafeBufferPointer(start: array.data, count: array.size))
        }
        guard let floor = window.map(\.logit).min() else { return nil }
        LlamaGrammar.apply(grammar, &window)
        window.removeAll { !$0.logit.isFinite || !keepsUTF8($0.id) }
        guard let (token, logit) = select(chain, in: &window), logit >= floor else { return nil }
        return token
    }

    /// Sets the logit of every candidate the grammar rejects to -inf, `maskChunk` candidates per
    /// call: llama.cpp decodes each candidate's text while it checks it, and for the whole
    /// vocabulary at once that transient memory was 12 MiB of `ask`'s peak.
    private func maskDisallowed(_ grammar: SamplerPointer) {
        candidates.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for start in stride(from: 0, to: buffer.count, by: Self.maskChunk) {
                var array = llama_token_data_array(data: base + start, size: min(Self.maskChunk, buffer.count - start),
                                                   selected: -1, sorted: false)
                llama_sampler_apply(grammar, &array)
            }
        }
        for index in candidates.indices where candidates[index].logit > -.infinity && !keepsUTF8(candidates[index].id) {
            candidates[index].logit = -.infinity
        }
    }

    /// Whether the grammar's output stays valid UTF-8 after `token`, and a character it leaves
    /// unfinished can be finished with bytes the grammar allows (llama.cpp's grammar lets `E0`
    /// start `é` as an overlong form, which valid UTF-8 can never finish).
    private func keepsUTF8(_ token: Token) -> Bool {
        guard let grammar else { return true }
        return LlamaGrammar.keepsUTF8(token, after: utf8, grammar: grammar, pieces: bytePieces)
    }



    /// Whether the active grammar takes `tokens` one after another from where it is now (always,
    /// without a grammar; never while a lazy grammar waits for its trigger). Nothing is fed.
    func accepts(_ tokens: [Token]) -> Bool {
        guard let grammar else { return true }
        guard triggerWatch == nil, let copy = llama_sampler_clone(grammar) else { return false }
        defer { llama_sampler_free(copy) }
        for token in tokens {
            guard LlamaGrammar.allows(copy, token, logit: 1) else { return false }
            llama_sampler_accept(copy, token)
        }
        return true
    }

    /// Feeds the chosen token to the chain's state (penalties) and to the grammar. The one place
    /// a generated token reaches llama.cpp's grammar: one it rejects is refused here with
    /// `.noTokenAllowed`, never handed over (llama.cpp would abort the process).
    func accept(_ token: Token) throws(LocalModelError) {
        guard let grammar, triggerWatch == nil else { return acceptWaitingForTrigger(token) }
        defer { grammarCheckedToken = nil }
        guard grammarCheckedToken == token || LlamaGrammar.allows(grammar, token, logit: 1) else {
            throw .noTokenAllowed(reason: "token \(token) (\(String(decoding: model.pieceBytes(token, renderSpecial: true), as: UTF8.self))) does not fit the grammar")
        }
        llama_sampler_accept(chain, token)
        llama_sampler_accept(grammar, token)
        utf8 = bytePieces.partial[token].flatMap { utf8.advanced(by: $0) } ?? UTF8Continuation()
    }

    /// `accept` without a grammar, or while a lazy grammar waits for its trigger.
    private func acceptWaitingForTrigger(_ token: Token) {
        llama_sampler_accept(chain, token)
        guard let grammar, var watch = triggerWatch else { return }
        let trigger: Trigger?
        if let checked = checkedToken, checked.token == token {
            (watch, trigger) = (checked.watch, checked.trigger)
        } else {
            trigger = self.trigger(completedBy: token, in: &watch)
        }
        checkedToken = nil
        triggerWatch = watch
        guard let trigger else { return }
        // The tokens that completed the trigger were sampled freely, and one may run past it
        // into text the grammar rejects ("<tool_call></"): llama.cpp throws on such input, which
        // aborts the process. Such a trigger is left as free text; the watch looks for the next.
        guard trigger.startsGrammar else { return triggerWatch?.forget() ?? () }
        triggerWatch = nil
        for token in trigger.tokens { llama_sampler_accept(grammar, token) }
    }

    /// Records `token` in `watch`; the trigger it completes, if any.
    private func trigger(completedBy token: Token, in watch: inout TriggerWatch) -> Trigger? {
        watch.record(token, bytes: model.pieceBytes(token, renderSpecial: true)).map { ($0.tokens, grammarCanStart(with: $0.text)) }
    }

    /// `chosen`, or, when it would complete the trigger with text the grammar rejects (a token
    /// like `"></"` after `"<tool_call"`), the best token that does not: masked one by one, as
    /// rarely more than one or two need to be.
    private func validTriggering(_ chosen: Token, watch: TriggerWatch, logits: [Float]) -> Token {
        var token = chosen
        var rejected: Set<Token> = []
        for _ in 0..<Self.triggerRetries {
            var probe = watch
            let trigger = self.trigger(completedBy: token, in: &probe)
            if trigger?.startsGrammar ?? true {
                checkedToken = (token, probe, trigger)
                return token
            }
            rejected.insert(token)
            fillCandidates(logits)
            for index in candidates.indices where rejected.contains(candidates[index].id) { candidates[index].logit = -.infinity }
            token = applyAndSelect(chain)
        }
        return token
    }

    /// Tokens tried in turn when one completes a lazy grammar's trigger with text the grammar rejects.
    static let triggerRetries = 16

    /// Whether a lazy grammar can take `text` (from its trigger on) as the start of its input,
    /// checked on a fresh immediate copy of the grammar.
    private func grammarCanStart(with text: [UInt8]) -> Bool {
        guard case .lazy(let triggers, let includesTrigger, _)? = constraint?.activation, let constraint else { return true }
        var input = text
        if !includesTrigger {
            let end = triggers.lazy.compactMap { trigger -> Int? in
                if case .complete(let end) = LenientPattern(trigger).match(inUTF8: input, at: 0) { return end }
                return nil
            }.first ?? 0
            input = Array(input[end...].drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })
        }
        guard let probe = try? LlamaGrammar.make(model: model, constraint: GrammarConstraint(gbnf: constraint.gbnf, root: constraint.root)),
              let tokens = try? model.tokenize(String(decoding: input, as: UTF8.self), addSpecial: false, parseSpecial: true)
        else { return false }
        defer { llama_sampler_free(probe) }
        for token in tokens {
            guard LlamaGrammar.allows(probe, token, logit: 0) else { return false }
            llama_sampler_accept(probe, token)
        }
        return true
    }


    /// llama.cpp's greedy choice (`llama_sampler_greedy_apply`): the first highest logit, index
    /// 0 unless a later one is higher (a NaN is never higher, nor beaten where it stands first).
    static func firstHighest(_ logits: [Float]) -> Token {
        logits.withUnsafeBufferPointer { logits in
            var best = 0
            for index in logits.indices.dropFirst() where logits[index] > logits[best] { best = index }
            return Token(best)
        }
    }

    private func fillCandidates(_ logits: [Float]) {
        candidates.removeAll(keepingCapacity: true)
        logits.withUnsafeBufferPointer { logits in
            for id in logits.indices { candidates.append(llama_token_data(id: Token(id), logit: logits[id], p: 0)) }
        }
    }

    private func applyAndSelect(_ sampler: SamplerPointer) -> Token {
        select(sampler, in: &candidates)?.token ?? model.endOfSequence ?? 0
    }

    /// Runs `sampler` over `data`; the token it selects and that token's logit after it.
    private func select(_ sampler: SamplerPointer, in data: inout [llama_token_data]) -> (token: Token, logit: Float)? {
        data.withUnsafeMutableBufferPointer { buffer in
            var array = llama_token_data_array(data: buffer.baseAddress, size: buffer.count, selected: -1, sorted: false)
            llama_sampler_apply(sampler, &array)
            guard array.selected >= 0, array.selected < array.size else { return nil }
            let chosen = array.data[Int(array.selected)]
            return (chosen.id, chosen.logit)
        }
    }
}
