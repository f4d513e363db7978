import CommandLineArguments
import Foundation
import LocalModel
import TokenBudget

/// What the commands that load a model were told about it: which file (`--model`, found through
/// models.lock), and, where the command takes them, the context window, where the layers run
/// (GPU layers, RPC servers, split) and threads.
/// nil is "not given": the library's or the model's own default.
struct ModelOptions: Sendable {
    let model: String?
    var context: ContextWindow? = nil
    var placement = PlacementOptions()
    var threads: Int? = nil
    var chatTemplate: String? = nil
    /// Whether the system turn's KV state is kept on disk for the next process (`PromptCache.standard`);
    /// off for the commands that only count or describe (`--no-prompt-cache` turns it off for questions).
    var promptCache = false

    /// The model file, or an error saying where it looked and how to get one.
    func locate() throws -> URL {
        try ModelLocator().locate(model)
    }

    /// Loads the weights (a spinner on stderr while llama.cpp maps them).
    func load() async throws -> (model: LocalModel, duration: Duration) {
        let url = try locate()
        var configuration = LocalModel.Configuration()
        placement.apply(to: &configuration)
        if let threads { configuration.threads = threads }
        configuration.chatTemplate = chatTemplate
        configuration.promptCache = promptCache ? .standard : .off
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
