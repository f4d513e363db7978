import Foundation
import LocalModel
import TokenBudget

/// The model flags shared by the commands that load one: which file, how many threads and GPU
/// layers, and the context window.
struct ModelOptions: Sendable {
    static let options: [CommandSpec.Option] = [
        .value("model", "FILE.gguf", "The model: a path, a file in models/, or a name from models.lock (default: the models.lock default)."),
        .value("context", "4k|8k|32k|N", "Context window in tokens (default: the model's trained context, at most 8K)."),
        .value("gpu-layers", "N", "Layers to offload to a GPU backend (default: 0, CPU only)."),
        .value("threads", "N", "Threads for prompt processing and generation (default: all cores)."),
    ]

    let model: String?
    let context: ContextWindow?
    let gpuLayers: Int
    let threads: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        model = arguments.value("model")
        if let text = arguments.value("context") {
            guard let window = ContextWindow(parsing: text) else {
                throw UsageError("--context must be 4k, 8k, 32k or a number of tokens, not '\(text)'")
            }
            context = window
        } else {
            context = nil
        }
        gpuLayers = try arguments.integer("gpu-layers") ?? 0
        threads = try arguments.integer("threads", atLeast: 1)
    }

    /// The model file, or an error saying where it looked and how to get one.
    func locate() throws -> URL {
        try ModelLocator(catalog: try ModelCatalog.locate()).locate(model)
    }

    /// Loads the weights (a spinner on stderr while llama.cpp maps them).
    func load() async throws -> (model: LocalModel, duration: Duration) {
        let url = try locate()
        var configuration = LocalModel.Configuration(gpuLayers: gpuLayers)
        if let threads { configuration.threads = threads }
        let start = ContinuousClock.now
        let model = try await Progress.spinning("Loading \(url.lastPathComponent)") { [configuration] in
            try LocalModel(contentsOf: url, configuration: configuration)
        }
        return (model, ContinuousClock.now - start)
    }

    /// Refuses a `--context` larger than `model` was trained with, naming the flag (the
    /// library's own error points at `allowBeyondTrainedContext`, which has no flag here).
    func checkContext(for model: LocalModel) throws(UsageError) {
        guard let context, model.info.trainedContext > 0, context.tokens > model.info.trainedContext else { return }
        throw UsageError("--context \(context.tokens) is larger than the \(model.info.trainedContext) tokens \(model.url.lastPathComponent) was trained with; use --context \(model.info.trainedContext) or less")
    }

    /// Loads the vocabulary only: enough to count tokens, without the weights.
    func loadVocabulary() throws -> LocalModel {
        try LocalModel.vocabularyOnly(contentsOf: locate())
    }

    /// The window to use with `model`: the flag's, or the model's default. A vocabulary-only
    /// load reports no trained context, so then the GGUF metadata's `<arch>.context_length` is
    /// read (capped at 8K like `defaultContextWindow`).
    func window(for model: LocalModel) -> ContextWindow {
        if let context { return context }
        if model.info.trainedContext > 0 { return model.defaultContextWindow }
        let trained = model.info.metadata["\(model.info.architecture).context_length"].flatMap { Int($0) } ?? ContextWindow.k4.tokens
        return ContextWindow(tokens: min(trained, ContextWindow.k8.tokens))
    }
}
