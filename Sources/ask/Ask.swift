import Foundation

/// `ask`: questions over your own data with a local model. Picks the command from the first
/// word, parses its flags, runs it, and turns every failure into one line on stderr and an exit
/// code: 0 success, 1 runtime error, 2 usage error, 130 interrupted.
@main
enum Ask {
    static let version = "ask (Lantern) 0.1.0"

    static let subcommands: [any Command.Type] = [IndexCommand.self, BudgetCommand.self, InfoCommand.self, ModelsCommand.self]

    static func main() async {
        let code = await run(Array(CommandLine.arguments.dropFirst()))
        // _exit, not exit: after Ctrl-C a cancelled generation may still be finishing its last
        // token on another thread, and exit() would run llama.cpp's C++ static destructors
        // under it (a crash seen in testing). Output goes out unbuffered; stdio is flushed here.
        fflush(nil)
        _exit(code)
    }

    static func run(_ words: [String]) async -> Int32 {
        var type: any Command.Type = QuestionCommand.self
        var rest = words
        if let first = words.first, let subcommand = subcommands.first(where: { $0.spec.name == first }) {
            type = subcommand
            rest.removeFirst()
        } else if words.first == "help" {
            let topic = words.dropFirst().first
            let spec = subcommands.first { $0.spec.name == topic }?.spec ?? QuestionCommand.spec
            Terminal.output(spec.help + "\n")
            return 0
        }
        do {
            let arguments = try ArgumentParser(spec: type.spec).parse(rest)
            if arguments.wantsHelp {
                Terminal.output(type.spec.help + "\n")
                return 0
            }
            if arguments.wantsVersion {
                Terminal.output(version + "\n")
                return 0
            }
            return try await type.init(arguments).run()
        } catch let error as UsageError {
            Terminal.error("ask: error: \(error.message)\n")
            if let usage = error.usage { Terminal.error("Usage: \(usage)\n") }
            Terminal.error("See 'ask \(type.spec.name.isEmpty ? "" : type.spec.name + " ")--help'.\n")
            return 2
        } catch is QuestionRunner.Interrupted {
            return 130
        } catch {
            Terminal.error("ask: error: \(oneLine(error))\n")
            return 1
        }
    }

    /// An error's description on one line (multi-line messages joined with "; ").
    static func oneLine(_ error: any Error) -> String {
        String(describing: error).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
