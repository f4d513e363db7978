import CommandLineArguments
import Foundation
import Lantern

/// What the commands that load a model were told about it: which file (`--model`, found through
/// models.lock), and, where the command takes them, the context window, where the layers run
/// (GPU layers, RPC servers, split) and threads. nil is "not given": the library's or the
/// model's own default. Loading itself is the app layer's (`ModelLoader`); this turns the flags
/// into its configuration and checks what only a flag's name can explain.
struct ModelOptions: Sendable {
    let model: String?
    var context: ContextWindow? = nil
    var placement = PlacementOptions()
    var threads: Int? = nil
    var chatTemplate: String? = nil
    /// Whether the system turn's KV state is kept on disk for the next process (`PromptCache.standard`);
    /// off for the commands that only count or describe (`--no-prompt-cache` turns it off for questions).
    var promptCache = false

    /// The loader these flags describe, with a spinner on stderr while it loads.
    var loader: ModelLoader {
        var configuration = LocalModel.Configuration()
        placement.apply(to: &configuration)
        if let threads { configuration.threads = threads }
        configuration.chatTemplate = chatTemplate
        configuration.promptCache = promptCache ? .standard : .off
        return ModelLoader(model: model, configuration: configuration, progress: TerminalProgress())
    }

    /// Refuses a `--context` larger than `model` was trained with, naming the flag (the
    /// library's own error points at `allowBeyondTrainedContext`, which has no flag here).
    func checkContext(for model: LocalModel) throws(UsageError) {
        guard let context, model.info.trainedContext > 0, context.tokens > model.info.trainedContext else { return }
        throw UsageError("--context \(context.tokens) is larger than the \(model.info.trainedContext) tokens \(model.url.lastPathComponent) was trained with; use --context \(model.info.trainedContext) or less")
    }

    /// The window to use with `model`: `--context`, or the model's default.
    func window(for model: LocalModel) -> ContextWindow {
        ModelLoader.window(for: model, context: context)
    }
}
