import Foundation

/// Whether, and where, the KV state of a session's fixed prefix (its system turn: instructions
/// and tool definitions) is kept on disk, so that a new process, or a session on a newly loaded
/// model, loads it instead of decoding it again (a Lantern addition, issue 48).
///
/// Why: the first question of a process decodes the whole system turn cold — seconds for a
/// 1.5B model on a CPU, minutes for a 4B one — while loading its saved state takes a fraction of
/// a second. A state is only loaded under the same model file (its SHA-256), prompt tokens,
/// context settings and llama.cpp build it was saved with (`PromptStateKey`), and a damaged file
/// is a `PromptStateNote` and a normal decode, never an error.
///
/// Off by default in the library: it writes tens of megabytes per distinct system turn into a
/// folder the app should choose. `ask` turns it on (`standard`) unless given `--no-prompt-cache`.
public enum PromptCache: Sendable, Hashable {
    /// Nothing is read or written: every process decodes its fixed prefix itself.
    case off
    /// States are kept in `folder` (made when first needed), at most `byteLimit` bytes of them:
    /// past it the least recently used are removed.
    case folder(URL, byteLimit: Int = PromptCache.defaultByteLimit)

    /// 1 GiB: a state costs the model's KV bytes per token times the prefix's tokens (about
    /// 23 KB a token for SmolLM2-135M, 28 KB for Qwen2.5-Coder-1.5B), so 1 GiB keeps some
    /// twenty 2,000-token system turns of a 1.5B model, and the cache never grows past it.
    public static let defaultByteLimit = 1 << 30

    /// `prompt-states` in Lantern's folder of the XDG cache home: `$XDG_CACHE_HOME/lantern/`,
    /// or `~/.cache/lantern/` when the variable is unset, so a user can move or clear it.
    public static var standardFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return cacheHome.appendingPathComponent("lantern/prompt-states")
    }

    /// The standard folder with the default limit: what `ask` uses.
    public static var standard: PromptCache { .folder(standardFolder) }
}
