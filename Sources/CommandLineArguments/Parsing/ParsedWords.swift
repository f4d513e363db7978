/// The command line sorted by the scanner: the words given for each option, the flags present,
/// the positional words. While a parse builds the command, it is the task-local `current`, from
/// which each property wrapper takes (and converts) its own value.
struct ParsedWords: Sendable {
    /// Option name to the words given for it (several only for a repeatable option).
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    /// `--help` or `-h` appeared before `--`.
    var wantsHelp = false
    /// `--version` appeared before `--` (only where the command has a version).
    var wantsVersion = false

    @TaskLocal static var current: ParsedWords? = nil
}
