import CLlama
import Foundation
import Synchronization

/// A loaded `llama_model` (weights, or only the vocabulary) and its vocabulary.
///
/// Immutable after load and safe to share: llama.cpp allows many contexts and tokenizer calls
/// on one model from several threads.
final class LlamaModelHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    let vocab: OpaquePointer
    /// The RPC servers that hold some of the weights (none for a model on this machine only).
    let rpcServers: [RPCServer]

    /// Loads `path`; on failure returns the lines llama.cpp logged so the caller can classify.
    static func load(path: String, vocabOnly: Bool, placement: LayerPlacement) -> Result<LlamaModelHandle, LoadFailure> {
        var params = llama_model_default_params()
        params.vocab_only = vocabOnly
        let (model, log) = LlamaRuntime.capturingLog { placement.applied(to: params) { llama_model_load_from_file(path, $0) } }
        guard let model else { return .failure(LoadFailure(log: log)) }
        guard let vocab = llama_model_get_vocab(model) else {
            llama_model_free(model)
            return .failure(LoadFailure(log: log + ["the model has no vocabulary"]))
        }
        return .success(LlamaModelHandle(pointer: model, vocab: vocab, rpcServers: placement.rpcServers))
    }

    struct LoadFailure: Error { let log: [String] }

    private init(pointer: OpaquePointer, vocab: OpaquePointer, rpcServers: [RPCServer]) {
        self.pointer = pointer
        self.vocab = vocab
        self.rpcServers = rpcServers
    }

    deinit {
        nonisolated(unsafe) let pointer = pointer
        RPCServerLoss.release(on: rpcServers) { llama_model_free(pointer) }
    }

    /// A new `llama_context` on this model; `what` names it in the error when llama.cpp
    /// cannot allocate it, with the reason llama.cpp logged.
    func newContext(_ params: llama_context_params, what: String) throws(LocalModelError) -> OpaquePointer {
        let (context, log) = LlamaRuntime.capturingLog { llama_init_from_model(pointer, params) }
        guard let context else { throw .outOfMemory(what: "\(what) (\(log.last ?? "llama_init_from_model failed"))") }
        return context
    }

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
    /// Every token that ends generation or frames a turn (end of sequence, end of turn,
    /// `<|im_start|>`: control tokens): none of them is answer text, so they are what
    /// `GenerationParameters.requiresText` masks. Read once, on first use.
    var turnTokens: [Token] {
        turnTokensCache.withLock { cached in
            if let cached { return cached }
            let tokens = (0..<Token(vocabularySize)).filter { isEndOfGeneration($0) || isControl($0) }
            cached = tokens
            return tokens
        }
    }
    private let turnTokensCache = Mutex<[Token]?>(nil)
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

    /// Every token's text as generation renders it (control tokens included, so Qwen's one-token
    /// `<tool_call>`), whitespace removed, grouped by its first byte; whitespace-only tokens
    /// are left out. What `ForbiddenOpenings` masks by. Read once, on first use.
    var compactPieces: [UInt8: [(token: Token, bytes: [UInt8])]] {
        compactPiecesCache.withLock { cached in
            if let cached { return cached }
            var pieces: [UInt8: [(token: Token, bytes: [UInt8])]] = [:]
            for token in 0..<Token(vocabularySize) {
                let bytes = pieceBytes(token, renderSpecial: true).filter { !ForbiddenOpenings.isWhitespace($0) }
                if let first = bytes.first { pieces[first, default: []].append((token, bytes)) }
            }
            cached = pieces
            return pieces
        }
    }
    private let compactPiecesCache = Mutex<[UInt8: [(token: Token, bytes: [UInt8])]]?>(nil)

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
}
