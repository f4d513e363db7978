import CommandLineArguments

/// One `ask` command: its options (declared as properties, see `ParsableCommand`), its
/// configuration (name and help), and what it does. `run` returns the process exit code; it
/// checks what the options cannot check alone (pairs that exclude each other, files that must
/// exist) before any work, and throws a `UsageError` for them.
protocol Command: ParsableCommand {
    func run() async throws -> Int32
}
