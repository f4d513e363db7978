import CommandLineArguments
import TokenBudget

/// `--model`, `--context`, where the layers run, `--threads`, `--chat-template` and
/// `--no-prompt-cache`: the flags of the commands that load a model to answer with it (`ask`,
/// `ask serve`), declared once so their spelling, order and help cannot drift apart.
struct ModelLoadingOptions: ParsableArguments {
    @Option(.model) var model: String?
    @Option(.context) var context: ContextWindow?
    @OptionGroup var placement: PlacementOptions
    @Option(.threads) var threads: Int?
    @Option(.chatTemplate) var chatTemplate: String?
    @Flag("no-prompt-cache", help: "Neither load nor save the system turn's KV state in $XDG_CACHE_HOME/lantern/prompt-states (kept so the next process starts warm; at most 1 GiB, least recently used out).")
    var noPromptCache: Bool

    /// These flags as the loader's options: the prompt cache is on unless `--no-prompt-cache`.
    var options: ModelOptions {
        ModelOptions(model: model, context: context, placement: placement, threads: threads, chatTemplate: chatTemplate, promptCache: !noPromptCache)
    }
}
