import CLlama
import Foundation

/// A llama.cpp grammar sampler.
typealias SamplerPointer = UnsafeMutablePointer<llama_sampler>

/// llama.cpp's grammar samplers: building one from a `GrammarConstraint`, asking it about
/// tokens, and the checks that need no generation (validation, acceptance of a text, walks).
/// The sampler (`LlamaSampler`) and `LocalModel` share these, so both apply the same rules.
enum LlamaGrammar {
    /// A grammar sampler for `constraint` (the caller frees it); `.invalidGrammar` with the
    /// parser's complaint when llama.cpp refuses the grammar.
    static func make(model: LlamaModelHandle, constraint: GrammarConstraint) throws(LocalModelError) -> SamplerPointer {
        let (sampler, log): (SamplerPointer?, [String]) = LlamaRuntime.capturingLog {
            switch constraint.activation {
            case .immediate:
                return llama_sampler_init_grammar(model.vocab, constraint.gbnf, constraint.root)
            case .lazy(let triggers, let includesTrigger, let tokens):
                // a whitespace run in a trigger stands for any (LenientPattern, as TriggerWatch reads it)
                let escaped = "(?:" + triggers.map { LenientPattern($0).parts.map(escapeRegex).joined(separator: "\\s*") }.joined(separator: "|") + ")"
                let pattern = includesTrigger ? "[\\s\\S]*?(" + escaped + "[\\s\\S]*)" : "[\\s\\S]*?" + escaped + "\\s*([\\s\\S]*)"
                let owned = [strdup(pattern)]
                defer { owned.forEach { free($0) } }
                var patternArray: [UnsafePointer<CChar>?] = owned.map { $0.map { UnsafePointer($0) } }
                return llama_sampler_init_grammar_lazy_patterns(
                    model.vocab, constraint.gbnf, constraint.root, &patternArray, patternArray.count,
                    tokens, tokens.count)
            }
        }
        guard let sampler else {
            throw .invalidGrammar(reason: log.filter { !$0.isEmpty }.suffix(3).joined(separator: "; "))
        }
        return sampler
    }

    /// Whether text in UTF-8 state `state` stays valid after `token`, with any character the
    /// token leaves unfinished finishable under `grammar` (see `LlamaSampler.keepsUTF8`).
    static func keepsUTF8(_ token: Token, after state: UTF8Continuation, grammar: SamplerPointer,
                          pieces: LlamaModelHandle.BytePieces) -> Bool {
        guard let bytes = pieces.partial[token] else { return state.isBetweenCharacters }
        guard let after = state.advanced(by: bytes) else { return false }
        guard !after.isBetweenCharacters else { return true }
        let copy = llama_sampler_clone(grammar)!
        defer { llama_sampler_free(copy) }
        llama_sampler_accept(copy, token)
        return canFinishCharacter(copy, from: after, tokenOfByte: pieces.tokenOfByte)
    }

    /// Whether some bytes the grammar allows finish the character in progress as valid UTF-8.
    static func canFinishCharacter(_ grammar: SamplerPointer, from state: UTF8Continuation, tokenOfByte: [UInt8: Token]) -> Bool {
        for byte in state.nextBytes {
            guard let token = tokenOfByte[byte], let next = state.advanced(by: [byte]), allows(grammar, token, logit: 0) else { continue }
            if next.isBetweenCharacters { return true }
            let copy = llama_sampler_clone(grammar)!
            defer { llama_sampler_free(copy) }
            llama_sampler_accept(copy, token)
            if canFinishCharacter(copy, from: next, tokenOfByte: tokenOfByte) { return true }
        }
        return false
    }

    /// Grammar validation for callers that only need a yes or no from llama.cpp's parser.
    static func validate(model: LlamaModelHandle, gbnf: String, root: String) throws(LocalModelError) {
        let sampler = try make(model: model, constraint: GrammarConstraint(gbnf: gbnf, root: root))
        llama_sampler_free(sampler)
    }

    /// Whether the grammar accepts exactly `tokens` and may end after them.
    static func accepts(model: LlamaModelHandle, gbnf: String, root: String, tokens: [Token]) throws(LocalModelError) -> Bool {
        let sampler = try make(model: model, constraint: GrammarConstraint(gbnf: gbnf, root: root))
        defer { llama_sampler_free(sampler) }
        for token in tokens {
            guard allows(sampler, token, logit: 0) else { return false }
            llama_sampler_accept(sampler, token)
        }
        guard let end = model.endOfSequence ?? model.endOfTurn else { return true }
        return allows(sampler, end, logit: 0)
    }

    /// A walk through one text the grammar accepts, one single-byte token at a time (so the walk
    /// can reach every text): before each step the sampler's own rules (llama.cpp's grammar, and
    /// valid UTF-8) mark which bytes may come next, and whether the end may, and `choose`
    /// picks an allowed byte, or nil to end where the end is allowed.
    static func walk(model: LlamaModelHandle, gbnf: String, root: String, maximumBytes: Int,
                     choose: (_ allowed: [UInt8], _ mayEnd: Bool) -> UInt8?) throws(LocalModelError) -> GrammarWalk {
        let sampler = try make(model: model, constraint: GrammarConstraint(gbnf: gbnf, root: root))
        defer { llama_sampler_free(sampler) }
        let pieces = model.bytePieces
        let steps = pieces.tokenOfByte.sorted { $0.key < $1.key }.map { (byte: $0.key, token: $0.value) }
        let end = model.endOfSequence ?? model.endOfTurn
        var text: [UInt8] = []
        var utf8 = UTF8Continuation()
        while text.count <= maximumBytes {
            var candidates = steps.map { llama_token_data(id: $0.token, logit: 0, p: 0) }
            if let end { candidates.append(llama_token_data(id: end, logit: 0, p: 0)) }
            LlamaGrammar.apply(sampler, &candidates)
            // The sampler's rule: every step keeps the text valid UTF-8.
            let allowed = zip(steps, candidates).filter { step, candidate in
                candidate.logit.isFinite && keepsUTF8(step.token, after: utf8, grammar: sampler, pieces: pieces)
            }.map(\.0)
            let mayEnd = utf8.isBetweenCharacters && (end == nil || candidates.last?.logit.isFinite == true)
            guard !allowed.isEmpty || mayEnd else { return .deadEnd(text) }
            let chosen = choose(allowed.map(\.byte), mayEnd)
            if chosen == nil, mayEnd { return .accepted(text) }
            // A choice the grammar does not allow takes the first allowed byte instead.
            guard let step = allowed.first(where: { $0.byte == chosen }) ?? allowed.first else { return .accepted(text) }
            llama_sampler_accept(sampler, step.token)
            text.append(step.byte)
            utf8 = utf8.advanced(by: [step.byte]) ?? UTF8Continuation()
        }
        return .tooLong(text)
    }

    /// Whether `grammar`, in its current state, allows `token` next.
    static func allows(_ grammar: SamplerPointer, _ token: Token, logit: Float) -> Bool {
        var single = [llama_token_data(id: token, logit: logit, p: 0)]
        apply(grammar, &single)
        return single[0].logit.isFinite
    }

    /// Runs `sampler` over `data` in place (each rejected candidate's logit becomes -inf).
    static func apply(_ sampler: SamplerPointer, _ data: inout [llama_token_data]) {
        data.withUnsafeMutableBufferPointer { buffer in
            var array = llama_token_data_array(data: buffer.baseAddress, size: buffer.count, selected: -1, sorted: false)
            llama_sampler_apply(sampler, &array)
        }
    }

    /// `text` with the characters that regular expressions treat specially escaped.
    private static func escapeRegex(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
