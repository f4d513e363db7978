import Foundation
import LocalModel
import TokenBudget

/// Loads a generation model the way every front end does: the file found by name through
/// models.lock, as a file in models/ or as a path (`ModelLocator`), with the configuration the
/// front end built from its options. `ask`, `eval` and `bench` load through it, so a model
/// named on one command line is the same file on another.
public struct ModelLoader: Sendable {
    /// A path, a file in models/, or a name from models.lock; nil is the models.lock default.
    public var model: String?
    /// Threads, placement, template and prompt cache, as the front end set them.
    public var configuration: LocalModel.Configuration
    /// Where the load's spinner turns while llama.cpp maps the weights.
    public var progress: any ProgressReporter

    public init(model: String?, configuration: LocalModel.Configuration = .init(), progress: any ProgressReporter = SilentProgress()) {
        self.model = model
        self.configuration = configuration
        self.progress = progress
    }

    /// The model file, or an error saying where it looked and how to get one.
    public func locate() throws -> URL {
        try ModelLocator().locate(model)
    }

    /// Loads the weights, and how long that took (`ask --json` reports it).
    public func load() async throws -> (model: LocalModel, duration: Duration) {
        let url = try locate()
        let start = ContinuousClock.now
        let model = try await progress.spinning("Loading \(url.lastPathComponent)") { [configuration] in
            try LocalModel(contentsOf: url, configuration: configuration)
        }
        return (model, ContinuousClock.now - start)
    }

    /// Loads the vocabulary only: enough to count tokens, without the weights.
    public func loadVocabulary() throws -> LocalModel {
        try LocalModel.vocabularyOnly(contentsOf: locate())
    }

    /// The window to use with `model`: `context` when given, else the model's default. A
    /// vocabulary-only load reports no trained context, so then the GGUF metadata's
    /// `<arch>.context_length` is read (capped at 8K like `defaultContextWindow`).
    public static func window(for model: LocalModel, context: ContextWindow?) -> ContextWindow {
        if let context { return context }
        if model.info.trainedContext > 0 { return model.defaultContextWindow }
        let trained = model.info.metadata["\(model.info.architecture).context_length"].flatMap { Int($0) } ?? ContextWindow.k4.tokens
        return ContextWindow(tokens: min(trained, ContextWindow.k8.tokens))
    }
}
