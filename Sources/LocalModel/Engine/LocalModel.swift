import Foundation
import Synchronization
import TokenBudget

/// A GGUF model loaded in-process through llama.cpp, shared by any number of sessions.
///
/// The weights are memory-mapped once; each conversation gets its own `InferenceContext`
/// (KV cache) from `makeContext(window:)`. Loading is checked up front so a bad file ends in a
/// `LocalModelError` that says what is wrong, never a crash.
public final class LocalModel: Sendable {
    /// Where the file came from.
    public let url: URL
    public let info: ModelInfo
    public let configuration: Configuration
    /// The layout prompts are rendered in: `configuration.chatTemplate` when given, else the one
    /// detected from the file's template and architecture.
    public let chatTemplate: ChatTemplate
    let handle: LlamaModelHandle
    let contextPool = ContextPool()
    /// Where the KV states of fixed prefixes are saved and loaded; nil when
    /// `configuration.promptCache` is off.
    let promptStates: PromptStateStore?
    /// The llama.cpp contexts whose sequences `makeContext` hands out; weak, so a context goes
    /// when the last conversation on it does.
    private let sharedContexts = Mutex<[WeakSharedContext]>([])

    private struct WeakSharedContext {
        weak var context: SharedContext?
    }

    /// How the model is loaded and run. The counts are checked when a model is loaded with it:
    /// one out of its range is a typed error then (`threadCountOutOfRange`,
    /// `parallelSessionsOutOfRange`), never raised or lowered silently.
    public struct Configuration: Sendable, Hashable {
        /// The most threads per logical core `threads` may ask for. ggml's CPU backend splits
        /// each matrix product into one share per thread and waits for the slowest, so threads
        /// beyond the cores take turns while every share waits for them, and an answer takes
        /// many times longer (issue 55 measured ten times at 32 per core). A few per core
        /// still leaves room to try what hyper-threads do; more is always a mistake.
        public static let threadsPerCore = 4

        /// The most threads a model (or an `EmbeddingModel`) runs on: `threadsPerCore` per
        /// logical core of this machine, never past ggml's own limit (`GGML_MAX_N_THREADS`,
        /// 512). `ask --threads`, `eval --threads` and `bench --threads` take the same cap.
        public static var maximumThreads: Int {
            min(threadsPerCore * ProcessInfo.processInfo.activeProcessorCount, LlamaRuntime.maximumThreads)
        }

        /// One thread per logical core (within `maximumThreads`): the default, and usually the fastest.
        public static var defaultThreads: Int { min(ProcessInfo.processInfo.activeProcessorCount, maximumThreads) }

        /// The most `parallelSessions`: the most sequences llama.cpp gives one context (256).
        public static let maximumParallelSessions = LlamaRuntime.maximumSequences

        /// Threads for prompt processing and generation, 1...`maximumThreads`; defaults to the
        /// machine's cores.
        public var threads: Int
        /// Layers that leave this machine's CPU for its GPUs and the `rpcServers` (0 = CPU only,
        /// the tested default here). The last layers go first, as in llama.cpp's `-ngl`.
        public var gpuLayers: Int
        /// Load only the vocabulary: enough for counting tokens, no weights in memory.
        public var vocabularyOnly: Bool
        /// The chat layout to render prompts with, by name (`ChatTemplate.acceptedNames`), in
        /// place of the one detected from the file: for base models whose file has no template,
        /// or a template llama.cpp does not recognise (llama-server's `--chat-template`).
        public var chatTemplate: String?
        /// ggml RPC servers whose devices take part of the `gpuLayers` (llama.cpp's `--rpc`):
        /// a model larger than one machine, or another machine's GPU. Unauthenticated: loopback
        /// or a trusted network only.
        public var rpcServers: [RPCServer]
        /// How the `gpuLayers` split over the devices, one proportion per device: this
        /// machine's GPUs first, then each server's devices in order (llama.cpp's
        /// `--tensor-split`). Empty splits by free memory.
        public var tensorSplit: [Double]
        /// Conversations that share one llama.cpp context, each with the full window in its own
        /// sequence, so that the next tokens of those generating at once are decoded in one
        /// batch (llama-server's `--parallel`): one pass over the weights serves them all, so
        /// the total tokens per second rises well above theirs taking turns (`bench --section
        /// concurrency`). The KV memory of all of them is taken when the first conversation
        /// starts, hence 1 by default; at most `maximumParallelSessions`.
        public var parallelSessions: Int
        /// Whether the KV state of a session's fixed prefix (its system turn) is kept on disk,
        /// so that the next process's first question loads it instead of decoding it again
        /// (`PromptCache`). Off by default: it writes tens of megabytes per system turn into
        /// a folder the app should choose; `ask` turns it on.
        public var promptCache: PromptCache

        public init(threads: Int = Configuration.defaultThreads, gpuLayers: Int = 0, vocabularyOnly: Bool = false,
                    chatTemplate: String? = nil, rpcServers: [RPCServer] = [], tensorSplit: [Double] = [], parallelSessions: Int = 1,
                    promptCache: PromptCache = .off) {
            self.threads = threads
            self.gpuLayers = max(0, gpuLayers)
            self.vocabularyOnly = vocabularyOnly
            self.chatTemplate = chatTemplate
            self.rpcServers = rpcServers
            self.tensorSplit = tensorSplit
            self.parallelSessions = parallelSessions
            self.promptCache = promptCache
        }

        /// Refuses counts outside their range, before llama.cpp sees them: ggml segfaulted or
        /// aborted on 100,000 threads and more, and a million sessions overflowed the context size.
        func validate() throws(LocalModelError) {
            try Self.checkThreads(threads)
            guard (1...Self.maximumParallelSessions).contains(parallelSessions) else {
                throw .parallelSessionsOutOfRange(requested: parallelSessions, maximum: Self.maximumParallelSessions)
            }
        }

        /// Refuses a thread count outside 1...`maximumThreads` (`EmbeddingModel` checks its own with it).
        static func checkThreads(_ threads: Int) throws(LocalModelError) {
            guard (1...maximumThreads).contains(threads) else {
                throw .threadCountOutOfRange(requested: threads, maximum: maximumThreads, cores: ProcessInfo.processInfo.activeProcessorCount)
            }
        }
    }

    /// Loads the model at `url`. Throws `LocalModelError` for a configuration count out of its
    /// range (threads, parallel sessions), a missing path, a directory, a file that is not
    /// GGUF, a truncated or corrupt file, an embedding model (which `EmbeddingModel` runs), an
    /// architecture llama.cpp does not support, or too little memory.
    public init(contentsOf url: URL, configuration: Configuration = Configuration()) throws(LocalModelError) {
        try configuration.validate()
        let header = try GGUFFile(contentsOf: url)
        if case .embedding(let pooling) = ModelPurpose(metadata: header.metadata) {
            throw .embeddingModelCannotGenerate(path: url.path, architecture: header.architecture ?? "unknown", pooling: pooling.rawValue)
        }
        let namedTemplate = try configuration.chatTemplate.map { name throws(LocalModelError) in try ChatTemplate(named: name) }
        try LlamaRuntime.initialize()
        let placement = try configuration.vocabularyOnly ? LayerPlacement.cpuOnly : LayerPlacement(configuration)
        let loaded = try EngineThread.shared.run { () throws(LocalModelError) in
            try RPCServerLoss.watching(servers: placement.rpcServers, report: { _ in }) {
                LlamaModelHandle.load(path: url.path, vocabOnly: configuration.vocabularyOnly, placement: placement)
            }
        }
        switch loaded {
        case .success(let handle):
            self.handle = handle
        case .failure(let failure):
            throw Self.classify(failure.log, path: url.path, architecture: header.architecture)
        }
        self.url = url
        self.configuration = configuration
        self.info = ModelInfo(handle: handle, header: header)
        switch configuration.promptCache {
        case .off:
            promptStates = nil
        case .folder(let folder, let byteLimit):
            let placement = "\(configuration.gpuLayers) layers offloaded, RPC \(configuration.rpcServers), split \(configuration.tensorSplit)"
            promptStates = PromptStateStore(folder: folder, byteLimit: byteLimit, modelURL: url, placement: placement)
        }
        chatTemplate = namedTemplate ?? ChatTemplate(template: info.chatTemplate, architecture: info.architecture)
    }

    /// A model loaded for counting only: the vocabulary without the weights, which takes well
    /// under a second even for multi-gigabyte files.
    public static func vocabularyOnly(contentsOf url: URL) throws(LocalModelError) -> LocalModel {
        try LocalModel(contentsOf: url, configuration: Configuration(vocabularyOnly: true))
    }

    /// The error for a load llama.cpp refused, from what it logged (`EmbeddingModel` shares it).
    static func classify(_ log: [String], path: String, architecture: String?) -> LocalModelError {
        let text = log.joined(separator: "\n")
        if text.contains("unknown model architecture") {
            return .unsupportedArchitecture(path: path, architecture: architecture ?? "unknown")
        }
        if text.contains("failed to allocate") || text.contains("out of memory") {
            return .outOfMemory(what: "the weights of \(path)")
        }
        // llama.cpp logs why as "llama_model_load: error loading model: <why>", and then a
        // general "failed to load model" last: the why is what a user can act on
        let marker = "error loading model: "
        let why = log.last { $0.contains(marker) }.flatMap { line in line.range(of: marker).map { String(line[$0.upperBound...]) } }
        let reason = why ?? log.last(where: { !$0.isEmpty }) ?? "llama.cpp could not load it"
        return .corruptFile(path: path, reason: reason)
    }

    /// The tokenizer of this model's vocabulary (also a `TokenCounter` for TokenBudget).
    public var tokenizer: Tokenizer { Tokenizer(handle: handle) }

    /// A fresh context (its own KV cache) for one conversation: a free sequence of a llama.cpp
    /// context with this window, or a new one of `configuration.parallelSessions` sequences.
    ///
    /// - Parameter allowBeyondTrainedContext: a window larger than the model was trained for
    ///   usually degrades output; it is refused unless the caller asks for it explicitly.
    public func makeContext(window: ContextWindow, allowBeyondTrainedContext: Bool = false) throws(LocalModelError) -> InferenceContext {
        if configuration.vocabularyOnly {
            throw .outOfMemory(what: "a context: the model was loaded vocabulary-only; load it with weights to generate")
        }
        if window.tokens > info.trainedContext && !allowBeyondTrainedContext {
            throw .contextLargerThanTrained(requested: window.tokens, trained: info.trainedContext)
        }
        // llama.cpp's context size is a 32-bit count of every sequence's positions together
        let largestWindow = Int(UInt32.max) / configuration.parallelSessions
        guard (1...largestWindow).contains(window.tokens) else {
            throw .contextWindowOutOfRange(requested: window.tokens, maximum: largestWindow)
        }
        // a free sequence of an existing context is handed out without the engine thread,
        // where a new context would meet the loss: a model that lost a server says so here
        if let loss = RPCServerLoss.loss(of: handle.rpcServers) { throw loss }
        func takeFreeSequence() -> (SharedContext, Int32)? {
            sharedContexts.withLock { contexts -> (SharedContext, Int32)? in
                contexts.removeAll { $0.context == nil }
                for entry in contexts {
                    if let context = entry.context, context.window == window.tokens, let sequence = context.takeSequence() { return (context, sequence) }
                }
                return nil
            }
        }
        var free = takeFreeSequence()
        // A session that just ended gives its sequence back once the engine thread has cleared
        // it, behind the decodes queued before: a server handing its turn to the next question
        // at once would otherwise make a second context (ask serve at --parallel 8 peaked at
        // 4.6 GB resident against 1.6 GB for one). Waiting for the queue to reach the clearing is shorter.
        if free == nil, sharedContexts.withLock({ $0.contains { $0.context?.window == window.tokens && $0.context?.isReleasingSequence == true } }) {
            EngineThread.shared.run {}
            free = takeFreeSequence()
        }
        if let (shared, sequence) = free { return InferenceContext(model: self, shared: shared, sequence: sequence) }
        let shared = try SharedContext(model: handle, window: window.tokens, sequences: configuration.parallelSessions, threads: configuration.threads)
        // a new shared context has at least one sequence, none of them taken
        guard let sequence = shared.takeSequence() else { preconditionFailure("a new shared context has no free sequence") }
        sharedContexts.withLock { $0.append(WeakSharedContext(context: shared)) }
        return InferenceContext(model: self, shared: shared, sequence: sequence)
    }

    /// Checks that llama.cpp's own GBNF parser accepts `gbnf`; throws `.invalidGrammar` with
    /// the parser's complaint otherwise.
    package func validateGrammar(_ gbnf: String, root: String = "root") throws(LocalModelError) {
        try LlamaGrammar.validate(model: handle, gbnf: gbnf, root: root)
    }

    /// Whether the grammar accepts `text` exactly, as llama.cpp would enforce it token by token
    /// (the text is tokenized with this model's vocabulary).
    package func grammar(_ gbnf: String, root: String = "root", accepts text: String) throws(LocalModelError) -> Bool {
        let tokens = try handle.tokenize(text, addSpecial: false, parseSpecial: false)
        return try LlamaGrammar.accepts(model: handle, gbnf: gbnf, root: root, tokens: tokens)
    }

    /// Walks one text the grammar accepts, one byte at a time, with the sampler's rules
    /// deciding at each step which bytes may come next and `choose` picking among them (nil to
    /// end, which the walk honours only where the grammar may end). The fuzz target for the
    /// grammar compiler uses it to check that whatever a grammar lets the model write fits the
    /// schema.
    package func walkGrammar(_ gbnf: String, root: String = "root", maximumBytes: Int,
                             choose: (_ allowed: [UInt8], _ mayEnd: Bool) -> UInt8?) throws(LocalModelError) -> GrammarWalk {
        try LlamaGrammar.walk(model: handle, gbnf: gbnf, root: root, maximumBytes: maximumBytes, choose: choose)
    }

    /// llama.cpp's built-in rendering of a conversation with `template` (by default the
    /// model's own); nil when llama.cpp does not recognise the template. Used to check
    /// `ChatTemplate` byte for byte.
    package func referenceChatRendering(_ messages: [ChatMessage], template: String? = nil, addAssistantPrefix: Bool = true) -> String? {
        guard let template = template ?? info.chatTemplate else { return nil }
        return ChatTemplate.referenceRendering(messages, template: template, addAssistantPrefix: addAssistantPrefix)
    }
}
