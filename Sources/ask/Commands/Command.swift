/// One `ask` command: its spec (options and help), how it reads parsed arguments, and what it
/// does. `run` returns the process exit code.
protocol Command: Sendable {
    static var spec: CommandSpec { get }
    init(_ arguments: ParsedArguments) throws(UsageError)
    func run() async throws -> Int32
}
