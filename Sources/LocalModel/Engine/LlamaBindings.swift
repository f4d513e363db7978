import CLlama
import Foundation
import Synchronization

// The only file in LocalModel that touches llama.cpp pointers. Each C object is owned by one
// Swift class that frees it in `deinit`; everything outside this file sees Swift values.

/// A token id in a model's vocabulary.
public typealias Token = Int32

/// Process-wide llama.cpp state: backends are loaded and initialised once, and llama's log goes
/// through a capture buffer so that a failed load can say *why* (llama.cpp only returns NULL).
enum LlamaRuntime {
    private static let logLines = Mutex<[String]>([])
    private static let echoLog = ProcessInfo.processInfo.environment["LANTERN_LLAMA_LOG"] == "1"

    /// The environment variable that makes ggml run one named CPU backend variant (`haswell`,
    /// `x64`, `zen4`, ...) instead of the best one this CPU can run: another machine's kernels,
    /// and so its arithmetic, on this one (tests and benchmarks use it).
    static let cpuVariantVariable = "LANTERN_GGML_CPU_VARIANT"

    /// Loads every ggml backend that is installed (CPU variants, Vulkan, CUDA), swaps in the CPU
    /// variant `LANTERN_GGML_CPU_VARIANT` names, and initialises llama.cpp. Evaluated once, on
    /// first use, from any thread.
    private static let initialization: Result<String?, LocalModelError> = {
        llama_log_set({ level, text, _ in
            guard let text else { return }
            let line = String(cString: text)
            if LlamaRuntime.echoLog { FileHandle.standardError.write(Data(line.utf8)) }
            if level == GGML_LOG_LEVEL_ERROR || level == GGML_LOG_LEVEL_WARN {
                LlamaRuntime.logLines.withLock { lines in
                    lines.append(line.trimmingCharacters(in: .whitespacesAndNewlines))
                    if lines.count > 64 { lines.removeFirst(lines.count - 64) }
                }
            }
        }, nil)
        // llama.cpp ends the process on an internal error (GGML_ABORT, an uncaught C++
        // exception), and by default ggml first attaches gdb, whose backtrace goes to stdout,
        // where `ask --json` writes its one JSON object. The message goes to stderr instead and
        // no debugger is started (LANTERN_LLAMA_LOG=1 keeps ggml's backtraces, for debugging).
        ggml_set_abort_callback { message in
            let text = message.map { String(cString: $0) } ?? "unknown error"
            FileHandle.standardError.write(Data("llama.cpp stopped the process: \(text)\n".utf8))
        }
        if !LlamaRuntime.echoLog { setenv("GGML_NO_BACKTRACE", "1", 0) }
        ggml_backend_load_all()
        llama_backend_init()
        let loaded = CPUBackendLibrary.mappedPath()
        guard let wanted = ProcessInfo.processInfo.environment[cpuVariantVariable], !wanted.isEmpty else { return .success(loaded) }
        return Result { () throws(LocalModelError) in try CPUBackendLibrary.select(wanted, replacing: loaded) }
    }()

    /// Makes sure the backends are loaded; throws when the CPU variant asked for cannot run.
    static func initialize() throws(LocalModelError) { _ = try initialization.get() }

    /// The file of the CPU backend variant in use; nil when it is built into ggml, or when the
    /// variant asked for could not be loaded.
    static var cpuBackendPath: String? { try? initialization.get() }

    /// Makes sure the backends are loaded, for callers that only list what loaded.
    static func loadBackends() { _ = initialization }

    /// Errors and warnings llama.cpp logged while `body` ran (loads are serialised for this).
    static func capturingLog<T>(_ body: () -> T) -> (T, [String]) {
        loadBackends()
        return loadLock.withLock { _ in
            logLines.withLock { $0.removeAll() }
            let result = body()
            return (result, logLines.withLock { $0 })
        }
    }
    private static let loadLock = Mutex<Void>(())

    /// How ggml type `type` stores values: `elements` values per block of `bytes` bytes (1 and
    /// 4 for F32, 32 and 18 for Q4_0); nil for a type this ggml does not know.
    static func tensorBlock(type: UInt32) -> (elements: Int64, bytes: Int64)? {
        guard type < UInt32(GGML_TYPE_COUNT.rawValue) else { return nil }
        let ggmlType = ggml_type(rawValue: type)
        let blockSize = Int64(ggml_blck_size(ggmlType))
        let typeSize = Int64(ggml_type_size(ggmlType))
        guard blockSize > 0, typeSize > 0 else { return nil }
        return (blockSize, typeSize)
    }

    /// The ggml devices that loaded on this machine (always at least the CPU).
    static func devices() -> [BackendDevice] {
        loadBackends()
        return (0..<ggml_backend_dev_count()).compactMap { index in
            guard let device = ggml_backend_dev_get(index) else { return nil }
            let kind: BackendDevice.Kind
            switch ggml_backend_dev_type(device) {
            case GGML_BACKEND_DEVICE_TYPE_CPU: kind = .cpu
            case GGML_BACKEND_DEVICE_TYPE_GPU: kind = .gpu
            case GGML_BACKEND_DEVICE_TYPE_IGPU: kind = .integratedGPU
            default: kind = .accelerator
            }
            return BackendDevice(
                name: String(cString: ggml_backend_dev_name(device)),
                description: String(cString: ggml_backend_dev_description(device)),
                kind: kind)
        }
    }

    static var supportsGPUOffload: Bool { loadBackends(); return llama_supports_gpu_offload() }

    /// Throws when `layers` > 0 are to go to a GPU but no loaded backend can take them: llama.cpp
    /// would silently keep them on the CPU, and the user would believe the GPU is in use.
    static func requireGPUOffload(layers: Int) throws(LocalModelError) {
        guard layers > 0, !supportsGPUOffload else { return }
        throw .gpuOffloadUnavailable(requestedLayers: layers, devices: devices().map(\.name))
    }
}

/// A loaded `llama_model` (weights, or only the vocabulary) and its vocabulary.
///
/// Immutable after load and safe to share: llama.cpp allows many contexts and tokenizer calls
/// on one model from several threads.
final class LlamaModelHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    let vocab: OpaquePointer

    /// Loads `path`; on failure returns the lines llama.cpp logged so the caller can classify.
    static func load(path: String, vocabOnly: Bool, gpuLayers: Int32) -> Result<LlamaModelHandle, LoadFailure> {
        var params = llama_model_default_params()
        params.vocab_only = vocabOnly
        params.n_gpu_layers = gpuLayers
        let (model, log) = LlamaRuntime.capturingLog { llama_model_load_from_file(path, params) }
        guard let model else { return .failure(LoadFailure(log: log)) }
        guard let vocab = llama_model_get_vocab(model) else {
            llama_model_free(model)
            return .failure(LoadFailure(log: log + ["the model has no vocabulary"]))
        }
        return .success(LlamaModelHandle(pointer: model, vocab: vocab))
    }

    struct LoadFailure: Error { let log: [String] }

    private init(pointer: OpaquePointer, vocab: OpaquePointer) {
        self.pointer = pointer
        self.vocab = vocab
    }

    deinit { llama_model_free(pointer) }

    // MARK: Metadata

    func metadata(_ key: String) -> String? {
        readString { buffer, size in llama_model_meta_val_str(pointer, key, buffer, size) }
    }

    var allMetadata: [String: String] {
        var result: [String: String] = [:]
        for index in 0..<llama_model_meta_count(pointer) {
            let key = readString { llama_model_meta_key_by_index(pointer, index, $0, $1) }
            let value = readString { llama_model_meta_val_str_by_index(pointer, index, $0, $1) }
            if let key, let value { result[key] = value }
        }
        return result
    }

    var descriptionText: String {
        readString { llama_model_desc(pointer, $0, $1) } ?? "unknown"
    }

    var parameterCount: UInt64 { llama_model_n_params(pointer) }
    var trainedContext: Int { Int(llama_model_n_ctx_train(pointer)) }
    var layerCount: Int { Int(llama_model_n_layer(pointer)) }
    var vocabularySize: Int { Int(llama_vocab_n_tokens(vocab)) }
    var chatTemplate: String? { llama_model_chat_template(pointer, nil).map { String(cString: $0) } }

    var beginningOfSequence: Token? { valid(llama_vocab_bos(vocab)) }
    var endOfSequence: Token? { valid(llama_vocab_eos(vocab)) }
    var endOfTurn: Token? { valid(llama_vocab_eot(vocab)) }
    func isEndOfGeneration(_ token: Token) -> Bool { llama_vocab_is_eog(vocab, token) }
    func isControl(_ token: Token) -> Bool {
        llama_vocab_get_attr(vocab, token).rawValue & LLAMA_TOKEN_ATTR_CONTROL.rawValue != 0
    }

    private func valid(_ token: llama_token) -> Token? { token == LLAMA_TOKEN_NULL ? nil : token }

    /// The tokens whose text is not whole UTF-8 on its own (pieces of a character, or bytes),
    /// with their bytes — the only ones `UTF8Continuation` must look at — and a token for each
    /// byte the vocabulary spells alone. Read once, on first use.
    var bytePieces: BytePieces {
        bytePiecesCache.withLock { cached in
            if let cached { return cached }
            var pieces = BytePieces()
            for token in 0..<Token(vocabularySize) where !isControl(token) {
                let bytes = pieceBytes(token, renderSpecial: false)
                if !UTF8Continuation.isWholeText(bytes) { pieces.partial[token] = bytes }
                if bytes.count == 1, pieces.tokenOfByte[bytes[0]] == nil { pieces.tokenOfByte[bytes[0]] = token }
            }
            cached = pieces
            return pieces
        }
    }
    private let bytePiecesCache = Mutex<BytePieces?>(nil)

    struct BytePieces: Sendable {
        var partial: [Token: [UInt8]] = [:]
        var tokenOfByte: [UInt8: Token] = [:]
    }

    /// Calls a llama "write into buf, return the length" function, growing the buffer once.
    private func readString(_ call: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String? {
        var capacity = 256
        for _ in 0..<2 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = buffer.withUnsafeMutableBufferPointer { call($0.baseAddress!, capacity) }
            if length < 0 { return nil }
            if Int(length) < capacity {
                return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = Int(length) + 1
        }
        return nil
    }

    // MARK: Tokens

    func tokenize(_ text: String, addSpecial: Bool, parseSpecial: Bool) throws(LocalModelError) -> [Token] {
        let utf8 = Array(text.utf8)
        var capacity = utf8.count + 8
        for _ in 0..<2 {
            var tokens = [Token](repeating: 0, count: capacity)
            let count = utf8.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    tokens.withUnsafeMutableBufferPointer { out in
                        llama_tokenize(vocab, chars.baseAddress, Int32(chars.count), out.baseAddress,
                                       Int32(capacity), addSpecial, parseSpecial)
                    }
                }
            }
            if count == Int32.min {
                throw .tokenizationFailed(reason: "the text is too long (\(utf8.count) bytes) for a 32-bit token count")
            }
            if count >= 0 { return Array(tokens[..<Int(count)]) }
            capacity = Int(-count)
        }
        throw .tokenizationFailed(reason: "llama_tokenize kept asking for a larger buffer")
    }

    /// Tokens for a rendered prompt: each run tokenized on its own, markup with special tokens
    /// parsed and content without, after the beginning-of-sequence token when `addSpecial` and
    /// the vocabulary uses one.
    func tokenize(_ prompt: RenderedPrompt, addSpecial: Bool) throws(LocalModelError) -> [Token] {
        var tokens: [Token] = []
        if addSpecial, llama_vocab_get_add_bos(vocab), let bos = beginningOfSequence { tokens.append(bos) }
        for run in prompt.runs {
            tokens += try tokenize(run.text, addSpecial: false, parseSpecial: run.parsesSpecialTokens)
        }
        return tokens
    }

    /// The raw bytes of one token (a token may end in the middle of a UTF-8 sequence).
    func pieceBytes(_ token: Token, renderSpecial: Bool) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, renderSpecial)
        if length < 0 {
            buffer = [CChar](repeating: 0, count: Int(-length))
            length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, renderSpecial)
        }
        return length > 0 ? buffer[..<Int(length)].map { UInt8(bitPattern: $0) } : []
    }

    // MARK: Chat templates

    /// llama.cpp's own rendering of `messages` with `template` (its built-in template
    /// detection, not a Jinja engine); nil when llama.cpp does not recognise the template.
    func applyChatTemplate(_ template: String, messages: [(role: String, content: String)],
                           addAssistantPrefix: Bool) -> String? {
        let roles = messages.map { strdup($0.role) }
        let contents = messages.map { strdup($0.content) }
        defer { (roles + contents).forEach { free($0) } }
        var chat = zip(roles, contents).map { llama_chat_message(role: $0, content: $1) }
        var capacity = messages.reduce(256) { $0 + $1.content.utf8.count * 2 + 64 }
        for _ in 0..<2 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = llama_chat_apply_template(template, &chat, chat.count, addAssistantPrefix, &buffer, Int32(capacity))
            if length < 0 { return nil }
            if Int(length) <= capacity {
                return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = Int(length)
        }
        return nil
    }
}

/// A `llama_context`: the KV cache and compute buffers for one conversation.
///
/// Not thread-safe; `InferenceContext` (an actor) is its only owner.
final class LlamaContextHandle {
    let pointer: OpaquePointer
    let model: LlamaModelHandle
    let size: Int
    let batchSize: Int

    init(model: LlamaModelHandle, contextSize: Int, threads: Int) throws(LocalModelError) {
        var params = llama_context_default_params()
        params.n_ctx = UInt32(contextSize)
        params.n_batch = UInt32(min(contextSize, Int(params.n_batch)))
        params.n_ubatch = min(params.n_ubatch, params.n_batch)
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(threads)
        params.no_perf = true
        // Only the last token's logits are ever read (`lastLogits()`); by default llama.cpp
        // reserves compute buffer for one output per batch token (49,152 × 512 floats, 96 MiB,
        // for SmolLM2). llama-server sets the same limit.
        params.n_outputs_max = 1
        let (context, log) = LlamaRuntime.capturingLog { llama_init_from_model(model.pointer, params) }
        guard let context else {
            throw .outOfMemory(what: "a \(contextSize)-token context (\(log.last ?? "llama_init_from_model failed"))")
        }
        self.pointer = context
        self.model = model
        self.size = Int(llama_n_ctx(context))
        self.batchSize = Int(params.n_batch)
    }

    deinit { llama_free(pointer) }

    /// Decodes `tokens` at the positions after what the cache already holds.
    func decode(_ tokens: ArraySlice<Token>, position: Int) throws(LocalModelError) {
        var copy = Array(tokens)
        let status = copy.withUnsafeMutableBufferPointer { buffer in
            llama_decode(pointer, llama_batch_get_one(buffer.baseAddress, Int32(buffer.count)))
        }
        if status != 0 { throw .decodeFailed(code: status, position: position) }
    }

    /// Forgets cached tokens from `position` on; false when the model's memory cannot be cut
    /// there (recurrent or sliding-window models), in which case the caller clears it all.
    func removeTokens(from position: Int) -> Bool {
        llama_memory_seq_rm(llama_get_memory(pointer), 0, Int32(position), -1)
    }

    func clear() { llama_memory_clear(llama_get_memory(pointer), true) }

    /// The logits of the last decoded position, as a candidate list for sampling.
    fileprivate func lastLogits() -> UnsafeMutablePointer<Float>? { llama_get_logits_ith(pointer, -1) }
}

/// A sampler chain plus an optional grammar, sampled the way llama.cpp's own `common_sampler`
/// does: sample with the chain first, check only the chosen token against the grammar, and
/// mask the whole vocabulary only when that token is rejected. Masking 49k tokens every step
/// halves generation speed; checking one token costs almost nothing.
final class LlamaSampler {
    private typealias SamplerPointer = UnsafeMutablePointer<llama_sampler>
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

    static let greedyWindow = 512
    /// Candidates masked per grammar call when the whole vocabulary must be checked.
    static let maskChunk = 4_096

    init(model: LlamaModelHandle, options: SamplingOptions, grammar constraint: GrammarConstraint?) throws(LocalModelError) {
        self.model = model
        self.constraint = constraint
        self.grammar = try constraint.map { constraint throws(LocalModelError) in
            try LlamaSampler.makeGrammar(model: model, constraint: constraint)
        }
        if case .lazy(let trigger, _, let tokens)? = constraint?.activation {
            triggerWatch = TriggerWatch(trigger: Array(trigger.utf8), tokens: Set(tokens))
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

    private static func makeGrammar(model: LlamaModelHandle, constraint: GrammarConstraint) throws(LocalModelError) -> SamplerPointer {
        let (sampler, log): (SamplerPointer?, [String]) = LlamaRuntime.capturingLog {
            switch constraint.activation {
            case .immediate:
                return llama_sampler_init_grammar(model.vocab, constraint.gbnf, constraint.root)
            case .lazy(let trigger, let includesTrigger, let tokens):
                let escaped = escapeRegex(trigger)
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

    /// Picks the next token from the context's last logits.
    ///
    /// Under an active grammar the token is one the grammar accepts, always: llama.cpp aborts the
    /// process when its grammar is handed a token it rejects (an end-of-generation token before
    /// the grammar is complete is `llama-grammar.cpp: fatal error`). Throws `.noTokenAllowed`
    /// when the grammar allows no token with a usable score (a damaged model's logits are NaN).
    func sample(from context: LlamaContextHandle) throws(LocalModelError) -> Token {
        guard let logits = context.lastLogits() else {
            throw .noTokenAllowed(reason: "llama.cpp kept no scores (logits) for the last position")
        }
        fillCandidates(logits)
        let chosen = applyAndSelect(chain)
        // A lazy grammar constrains nothing before its trigger, except the token that completes it.
        if let watch = triggerWatch { return validTriggering(chosen, watch: watch, logits: logits) }
        guard let grammar else { return chosen }
        if keepsUTF8(chosen), grammarAllows(grammar, chosen, logit: 1) { return grammarChecked(chosen) }
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
            if let end = model.endOfSequence ?? model.endOfTurn, keepsUTF8(end), grammarAllows(grammar, end, logit: 0) { return end }
            if unscored > 0 {
                throw .noTokenAllowed(reason: "the model scores every token the grammar allows as NaN, so its weights are damaged; download the model again and check its sha256")
            }
            throw .noTokenAllowed(reason: "the grammar allows no token of this model's vocabulary here; check the grammar, or the schema it was compiled from")
        }
        if let token = select(chain, in: &candidates)?.token, keepsUTF8(token), grammarAllows(grammar, token, logit: 1) { return token }
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
        llama_sampler_apply_to(grammar, &window)
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
        return Self.keepsUTF8(token, after: utf8, grammar: grammar, pieces: bytePieces)
    }

    private static func keepsUTF8(_ token: Token, after state: UTF8Continuation, grammar: SamplerPointer,
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
    private static func canFinishCharacter(_ grammar: SamplerPointer, from state: UTF8Continuation, tokenOfByte: [UInt8: Token]) -> Bool {
        for byte in state.nextBytes {
            guard let token = tokenOfByte[byte], let next = state.advanced(by: [byte]), grammarAllows(grammar, token, logit: 0) else { continue }
            if next.isBetweenCharacters { return true }
            let copy = llama_sampler_clone(grammar)!
            defer { llama_sampler_free(copy) }
            llama_sampler_accept(copy, token)
            if canFinishCharacter(copy, from: next, tokenOfByte: tokenOfByte) { return true }
        }
        return false
    }

    /// Feeds the chosen token to the chain's state (penalties) and to the grammar. The one place
    /// a generated token reaches llama.cpp's grammar: one it rejects is refused here with
    /// `.noTokenAllowed`, never handed over (llama.cpp would abort the process).
    func accept(_ token: Token) throws(LocalModelError) {
        guard let grammar, triggerWatch == nil else { return acceptWaitingForTrigger(token) }
        defer { grammarCheckedToken = nil }
        guard grammarCheckedToken == token || grammarAllows(grammar, token, logit: 1) else {
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
    private func validTriggering(_ chosen: Token, watch: TriggerWatch, logits: UnsafeMutablePointer<Float>) -> Token {
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
        guard case .lazy(let trigger, let includesTrigger, _)? = constraint?.activation, let constraint else { return true }
        var input = text
        if !includesTrigger {
            input.removeFirst(min(trigger.utf8.count, input.count))
            input = Array(input.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })
        }
        guard let probe = try? Self.makeGrammar(model: model, constraint: GrammarConstraint(gbnf: constraint.gbnf, root: constraint.root)),
              let tokens = try? model.tokenize(String(decoding: input, as: UTF8.self), addSpecial: false, parseSpecial: true)
        else { return false }
        defer { llama_sampler_free(probe) }
        for token in tokens {
            guard grammarAllows(probe, token, logit: 0) else { return false }
            llama_sampler_accept(probe, token)
        }
        return true
    }

    /// Watches the output for a lazy grammar's trigger.
    ///
    /// llama.cpp's lazy grammar appends each token's text to a buffer and matches its trigger
    /// regex (std::regex) over the whole buffer at every token, so a long free-text answer costs
    /// more per token the longer it gets (about 5% of a 250-token answer's time). Before the
    /// trigger the grammar constrains nothing, so it is not fed at all; this watch looks for the
    /// literal trigger in the last few tokens instead, and hands over the tokens from the one
    /// where the trigger begins: the grammar's regex then runs over a few dozen bytes, once.
    private struct TriggerWatch {
        let trigger: [UInt8]
        let tokens: Set<Token>
        private var recent: [(token: Token, bytes: [UInt8])] = []

        init(trigger: [UInt8], tokens: Set<Token>) {
            self.trigger = trigger
            self.tokens = tokens
        }

        /// Records a generated token; once the trigger is complete, the tokens to feed the
        /// grammar (from the one where the trigger begins) and their text from the trigger on,
        /// else nil.
        mutating func record(_ token: Token, bytes: [UInt8]) -> (tokens: [Token], text: [UInt8])? {
            if tokens.contains(token) { return ([token], bytes) }
            recent.append((token, bytes))
            // Keep the newest token and enough before it to hold a trigger that ends in it.
            while recent.count > 1, recent.dropFirst().dropLast().reduce(0, { $0 + $1.bytes.count }) >= trigger.count {
                recent.removeFirst()
            }
            let text = recent.flatMap(\.bytes)
            guard !trigger.isEmpty, text.count >= trigger.count,
                  let start = (0...(text.count - trigger.count)).first(where: { text[$0..<($0 + trigger.count)].elementsEqual(trigger) })
            else { return nil }
            var offset = 0
            for (index, entry) in recent.enumerated() {
                offset += entry.bytes.count
                if offset > start { return (recent[index...].map(\.token), Array(text[start...])) }
            }
            return nil
        }

        /// Drops what was seen so far, so a trigger already found is not found again.
        mutating func forget() { recent.removeAll() }
    }

    private func fillCandidates(_ logits: UnsafeMutablePointer<Float>) {
        let count = model.vocabularySize
        candidates.removeAll(keepingCapacity: true)
        for id in 0..<count { candidates.append(llama_token_data(id: Token(id), logit: logits[id], p: 0)) }
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

    /// Grammar validation for callers that only need a yes or no from llama.cpp's parser.
    static func validate(model: LlamaModelHandle, gbnf: String, root: String) throws(LocalModelError) {
        let sampler = try makeGrammar(model: model, constraint: GrammarConstraint(gbnf: gbnf, root: root))
        llama_sampler_free(sampler)
    }

    /// Whether the grammar accepts exactly `tokens` and may end after them.
    static func accepts(model: LlamaModelHandle, gbnf: String, root: String, tokens: [Token]) throws(LocalModelError) -> Bool {
        let sampler = try makeGrammar(model: model, constraint: GrammarConstraint(gbnf: gbnf, root: root))
        defer { llama_sampler_free(sampler) }
        for token in tokens {
            guard grammarAllows(sampler, token, logit: 0) else { return false }
            llama_sampler_accept(sampler, token)
        }
        guard let end = model.endOfSequence ?? model.endOfTurn else { return true }
        return grammarAllows(sampler, end, logit: 0)
    }

    /// A walk through one text the grammar accepts, one single-byte token at a time (so the walk
    /// can reach every text): before each step the sampler's own rules (llama.cpp's grammar, and
    /// valid UTF-8) mark which bytes may come next, and whether the end may, and `choose`
    /// picks an allowed byte, or nil to end where the end is allowed.
    static func walk(model: LlamaModelHandle, gbnf: String, root: String, maximumBytes: Int,
                     choose: (_ allowed: [UInt8], _ mayEnd: Bool) -> UInt8?) throws(LocalModelError) -> GrammarWalk {
        let sampler = try makeGrammar(model: model, constraint: GrammarConstraint(gbnf: gbnf, root: root))
        defer { llama_sampler_free(sampler) }
        let pieces = model.bytePieces
        let steps = pieces.tokenOfByte.sorted { $0.key < $1.key }.map { (byte: $0.key, token: $0.value) }
        let end = model.endOfSequence ?? model.endOfTurn
        var text: [UInt8] = []
        var utf8 = UTF8Continuation()
        while text.count <= maximumBytes {
            var candidates = steps.map { llama_token_data(id: $0.token, logit: 0, p: 0) }
            if let end { candidates.append(llama_token_data(id: end, logit: 0, p: 0)) }
            llama_sampler_apply_to(sampler, &candidates)
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

    private static func grammarAllows(_ grammar: SamplerPointer, _ token: Token, logit: Float) -> Bool {
        var single = [llama_token_data(id: token, logit: logit, p: 0)]
        llama_sampler_apply_to(grammar, &single)
        return single[0].logit.isFinite
    }

    private func grammarAllows(_ grammar: SamplerPointer, _ token: Token, logit: Float) -> Bool {
        Self.grammarAllows(grammar, token, logit: logit)
    }
}

/// `text` with the characters that regular expressions treat specially escaped.
private func escapeRegex(_ text: String) -> String {
    var escaped = ""
    for character in text {
        if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
        escaped.append(character)
    }
    return escaped
}

private func llama_sampler_apply_to(_ sampler: UnsafeMutablePointer<llama_sampler>, _ data: inout [llama_token_data]) {
    data.withUnsafeMutableBufferPointer { buffer in
        var array = llama_token_data_array(data: buffer.baseAddress, size: buffer.count, selected: -1, sorted: false)
        llama_sampler_apply(sampler, &array)
    }
}
