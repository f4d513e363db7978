import CommandLineArguments
import Foundation

/// `ask`: questions over your own data with a local model. Picks the command from the first
/// word, parses its flags, runs it, and turns every failure into one line on stderr and an exit
/// code: 0 success, 1 runtime error, 2 usage error, 130 interrupted.
@main
enum Ask {
    static let version = "ask (Lantern) 0.1.0"

    static let subcommands: [any Command.Type] = [IndexCommand.self, BudgetCommand.self, InfoCommand.self, ModelsCommand.self, MCPCommand.self, ServeCommand.self]

    static func main() async {
        let code = await run(Array(CommandLine.arguments.dropFirst()))
        // _exit, not exit: after Ctrl-C a cancelled generation may still be finishing its last
        // token on another thread, and exit() would run llama.cpp's C++ static destructors
        // under it (a crash seen in testing). Output goes out unbuffered; stdio is flushed here.
        fflush(nil)
        _exit(code)
    }

    static func run(_ words: [String]) async -> Int32 {
        // under --json, stdout carries one JSON object whatever happens, errors included
        let json = words.prefix { $0 != "--" }.contains("--json")
        var type: any Command.Type = QuestionCommand.self
        var rest = words
        if let first = words.first, let subcommand = subcommands.first(where: { $0.configuration.name == first }) {
            type = subcommand
            rest.removeFirst()
        } else if words.first == "help" {
            let topic = words.dropFirst().first
            Terminal.output((subcommands.first { $0.configuration.name == topic } ?? QuestionCommand.self).help + "\n")
            return 0
        }
        do {
            if type == QuestionCommand.self, let first = words.first { try refuseUnknownCommand(first, alone: words.count == 1) }
            return try await execute(type, rest)
        } catch let error as UsageError {
            Terminal.error(error.report(for: type.configuration))
            return fail(error.message, code: 2, json: json)
        } catch is QuestionRunner.Interrupted {
            return fail("interrupted", code: 130, json: json)
        } catch {
            Terminal.error("ask: error: \(oneLine(error))\n")
            return fail(oneLine(error), code: 1, json: json)
        }
    }

    /// Parses the words after the command's name and runs it, or prints its help or the version.
    private static func execute<C: Command>(_ type: C.Type, _ words: [String]) async throws -> Int32 {
        switch try C.parse(words) {
        case .command(let command):
            return try await command.run()
        case .help:
            Terminal.output(C.help + "\n")
        case .version:
            Terminal.output(version + "\n")
        }
        return 0
    }

    /// A lone first word that names no command and reads like a mistyped one (one word, no
    /// question mark) is refused, with the nearest command, instead of being sent to the model.
    static func refuseUnknownCommand(_ word: String, alone: Bool) throws {
        guard alone, !word.isEmpty, !word.hasPrefix("-"), word.allSatisfy({ $0.isLetter || $0 == "-" }) else { return }
        let names = subcommands.map { $0.configuration.name } + ["help"]
        var suggestion = ""
        if let nearest = names.min(by: { editDistance(word, $0) < editDistance(word, $1) }), editDistance(word, nearest) <= 2 {
            suggestion = "did you mean '" + nearest + "'? "
        }
        let message = "'" + word + "' is not a command (" + names.joined(separator: ", ") + "); " + suggestion
            + "to ask it as a question, end it with '?': ask \"" + word + "?\""
        throw QuestionCommand.usageError(message)
    }

    /// Levenshtein distance, for suggesting the command a typo meant.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Returns `code`; under `--json`, first prints `{"error": {"message", "exitCode"}}` on
    /// stdout, so a script reading stdout sees why there is no answer.
    static func fail(_ message: String, code: Int32, json: Bool) -> Int32 {
        if json {
            struct Failure: Encodable { struct Body: Encodable { let message: String; let exitCode: Int32 }; let error: Body }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(Failure(error: .init(message: message, exitCode: code))) {
                Terminal.output(String(decoding: data, as: UTF8.self) + "\n")
            }
        }
        return code
    }

    /// An error's description on one line (multi-line messages joined with "; ").
    static func oneLine(_ error: any Error) -> String {
        String(describing: error).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
