import CommandLineArguments
import TokenBudget

/// `--model`, `--context`, where the layers run, `--threads` and `--chat-template`: the flags of
/// the commands that load a model to answer with it (`ask`, `ask serve`), declared once so their
/// spelling, order and help cannot drift apart.
struct ModelLoadingOptions: ParsableArguments {
    @Option(.model) var model: String?
    @Option(.context) var context: ContextWindow?
    @OptionGroup var placement: PlacementOptions
    @Option(.threads) var threads: Int?
    @Option(.chatTemplate) var chatTemplate: String?

    /// These flags as the loader's options, with the prompt cache on or off as the command says.
    func options(promptCache: Bool) -> ModelOptions {
        ModelOptions(model: model, context: context, placement: placement, threads: threads, chatTemplate: chatTemplate, promptCache: promptCache)
    }
}
