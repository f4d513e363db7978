import Foundation
@testable import SearchIndex
import Testing

/// The command line without a model run: parsing, help, errors, the catalogue, indexing, budget.
@Suite struct AskCLITests {
    @Test(arguments: [
        (["--bogus"], "--bogus"),
        (["--context", "huge", "q"], "--context"),
        (["--guide", "wide", "q"], "--guide"),
        (["--format", "tiny", "q"], "--format"),
        (["--threads", "many", "q"], "--threads"),
        (["--max-tokens", "0", "q"], "--max-tokens"),
        (["--model"], "--model"),
        (["--corpus", "a.jsonl", "--folder", "b", "q"], "--corpus"),
        (["--json=yes", "q"], "--json"),
        (["index"], "--folder"),
        (["index", "--folder", "x", "--nope"], "--nope"),
        (["info", "extra"], "extra"),
        (["models", "-x"], "-x"),
        (["budget", "--context", "-3"], "--context"),
    ])
    func usageErrorsExitWithTwoAndNameTheFlag(arguments: [String], flag: String) throws {
        let result = try AskProcess().run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ask: error: ") == true, "\(result.stderr)")
        #expect(lines.first?.contains(flag) == true, "\(result.stderr)")
        #expect(lines.count <= 3, "no stack trace: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        ([], ["--model", "--corpus", "--folder", "--index", "--guide", "--format", "--context", "--gpu-layers", "--threads",
              "--think", "--json", "--trace", "--no-prompt-cache", "--image", "--server", "--server-model", "--api-key", "QUESTION", "index", "budget", "info", "models"]),
        (["index"], ["--folder", "--corpus", "--index"]),
        (["budget"], ["--model", "--context", "--guide", "--format", "--corpus", "--folder", "--index"]),
        (["info"], ["--model"]),
        (["models"], []),
    ])
    func everyCommandHasHelp(command: [String], mentions: [String]) throws {
        for helpFlag in ["--help", "-h"] {
            // Flags in any order: help after other options works too.
            for arguments in [command + [helpFlag], command + ["--json", helpFlag].filter { command.isEmpty || $0 != "--json" }] {
                let result = try AskProcess().run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                #expect(result.stdout.contains("USAGE: ask" + command.map { " " + $0 }.joined()), "\(result.stdout)")
                for word in mentions + ["--help"] {
                    #expect(result.stdout.contains(word), "help of \(command) lacks \(word)")
                }
            }
        }
    }

    @Test func aMissingImageIsAUsageErrorNamingTheFile() throws {
        let ask = try AskProcess()
        let missing = ask.dataHome.url.appendingPathComponent("no-such-receipt.png").path
        for word in [missing, missing + ":receipt"] {
            let result = try ask.run(["--image", word, "What does the receipt say?"])
            #expect(result.status == 2, "\(word): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.first?.hasPrefix("ask: error: ") == true, "\(result.stderr)")
            #expect(lines.first?.contains(missing) == true, "the message names the file: \(result.stderr)")
            #expect(lines.count <= 3, "no stack trace: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func versionAndHelpSubcommand() throws {
        let version = try AskProcess().run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("ask (Lantern) "))
        #expect(version.stdout.split(separator: "\n").count == 1)
        let help = try AskProcess().run(["help", "index"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: ask index"))
    }

    @Test func doubleDashEndsOptions() throws {
        // After `--`, "--json" is the question's text, so the budget prints its table, not JSON.
        let result = try AskProcess().run(["budget", "--", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.hasPrefix("{"))
        #expect(result.stdout.contains("new prompt"))
    }

    @Test func aMissingModelSaysWhereItLookedAndHowToGetOne() throws {
        let name = "missing-\(UUID().uuidString).gguf"
        var ask = try AskProcess()
        let folder = try TemporaryFolder()
        ask.environment["LANTERN_MODELS_DIR"] = folder.url.path
        let named = try ask.run(["--model", name, "Which trails are in Utah?"])
        #expect(named.status == 1)
        #expect(named.stderr.hasPrefix("ask: error: "))
        #expect(named.stderr.contains(ask.dataHome.url.appendingPathComponent(name).path), "\(named.stderr)")
        #expect(named.stderr.contains(folder.url.appendingPathComponent(name).path), "\(named.stderr)")
        #expect(named.stderr.contains("--model"))
        #expect(named.stderr.split(separator: "\n").count == 1)

        // The default model of a catalogue whose file is not installed.
        let lock = try folder.write("""
            {"default": "tiny", "models": [{"name": "tiny", "displayName": "Tiny", "file": "tiny.gguf", "sha256": null, "sizeBytes": null,
              "source": {"kind": "pip", "package": "tiny==1"}, "templateFamily": "chatml", "license": "MIT", "trainedContext": 2048}]}
            """, to: "catalogue/models.lock")
        var isolated = try AskProcess()
        isolated.environment["LANTERN_MODELS_LOCK"] = lock.path
        let missingDefault = try isolated.run(["Which trails are in Utah?"])
        #expect(missingDefault.status == 1)
        #expect(missingDefault.stderr.contains("tiny"), "\(missingDefault.stderr)")
        #expect(missingDefault.stderr.contains(lock.deletingLastPathComponent().appendingPathComponent("models/tiny.gguf").path), "\(missingDefault.stderr)")
        #expect(missingDefault.stderr.contains("scripts/setup.sh"), "\(missingDefault.stderr)")
    }

    @Test func aFileThatIsNotAModelShowsTheEnginesError() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("just text, not a model", to: "fake.gguf")
        let result = try AskProcess().run(["info", "--model", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a GGUF model"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func aChatTemplateCanBeNamedAndAnUnknownNameIsRefusedWithTheNames() throws {
        let named = try AskProcess().run(["info", "--chat-template", "gemma"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.contains("template family:") && named.stdout.contains("gemma (--chat-template)"), "\(named.stdout)")
        // each layout says how its family writes calls and whether it thinks
        let llama = try AskProcess().run(["info", "--chat-template", "llama3"])
        #expect(llama.stdout.contains("tool layout:") && llama.stdout.contains("llama3-json (calls open with {\"name\", at most 1 per round)"),
                "\(llama.stdout)")
        #expect(llama.stdout.contains("thinking:") && llama.stdout.contains("not supported"), "\(llama.stdout)")
        let qwen = try AskProcess().run(["info", "--chat-template", "qwen3"])
        #expect(qwen.stdout.contains("hermes (calls open with <tool_call>)") && qwen.stdout.contains("/no_think"), "\(qwen.stdout)")
        let unknown = try AskProcess().run(["info", "--chat-template", "gemma9"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no chat template named 'gemma9'") && unknown.stderr.contains("llama3"), "\(unknown.stderr)")
    }

    @Test func infoDescribesTheDefaultModel() throws {
        let result = try AskProcess().run(["info"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(AskProcess.defaultModel.path))
        #expect(result.stdout.contains("architecture:") && result.stdout.contains("llama"))
        #expect(result.stdout.contains("template family:") && result.stdout.contains("chatml"))
        #expect(result.stdout.contains("trained context:") && result.stdout.contains("8,192"))
        #expect(result.stdout.contains("backends:") && result.stdout.contains("CPU"))
    }

    @Test func modelsListsTheCatalogueAndWhatIsInstalled() throws {
        let lock = AskProcess.repository.appendingPathComponent("models.lock")
        let catalogue = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lock)) as? [String: Any])
        let models = try #require(catalogue["models"] as? [[String: Any]])
        let result = try AskProcess().run(["models"])
        #expect(result.status == 0, "\(result.stderr)")
        for model in models {
            let name = try #require(model["name"] as? String)
            let file = try #require(model["file"] as? String)
            #expect(result.stdout.contains(name))
            let installed = FileManager.default.fileExists(atPath: AskProcess.repository.appendingPathComponent("models/\(file)").path)
            let block = result.stdout.components(separatedBy: "\n\n").first { $0.contains(name + ":") || $0.contains(name + " (default):") } ?? ""
            #expect(block.contains(installed ? "installed at" : "not installed"), "\(block)")
        }
        #expect(result.stdout.contains("\(catalogue["default"] as? String ?? "?") (default)"))
    }

    @Test func indexingACorpusReportsItsItemsAndBadLinesByNumber() throws {
        let ask = try AskProcess()
        let corpus = try ask.dataHome.write("""
            {"id": "a", "attributes": {"title": "Alpha", "textContent": "one"}}
            {"id": "b", "attributes": {"title": "Beta", "textContent": "two"}}
            """, to: "small.jsonl")
        let first = try ask.run(["index", "--corpus", corpus.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Index 'small'"))
        #expect(first.stdout.contains("2 items"))
        let indexFile = ask.dataHome.url.appendingPathComponent("lantern/indexes/small.sqlite")
        #expect(FileManager.default.fileExists(atPath: indexFile.path))
        let again = try ask.run(["index", "--index", "small", "--corpus", corpus.path])
        #expect(again.stdout.contains("already up to date"), "\(again.stdout)")

        let bad = try ask.dataHome.write("""
            {"id": "a", "attributes": {"title": "Alpha"}}
            {"id": "b", "attributes": {"rating": "five"}}
            """, to: "bad.jsonl")
        let failed = try ask.run(["index", "--corpus", bad.path])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("line 2"), "\(failed.stderr)")
        #expect(failed.stderr.contains("rating"))
        #expect(failed.stderr.split(separator: "\n").count == 1)

        let unknown = try ask.run(["--index", "nothing-here", "Which trails?"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no index named 'nothing-here'"), "\(unknown.stderr)")
    }

    /// An index written in an older format (its SQLite user_version set back to 4) is emptied
    /// on opening; asking it says so (not that it was built from nothing, nor that a log is
    /// missing) and how to rebuild it.
    @Test func anIndexInAnOlderFormatAsksToBeRebuilt() throws {
        let ask = try AskProcess()
        let corpus = try ask.dataHome.write("""
            {"id": "a", "attributes": {"title": "Alpha", "textContent": "one"}}
            """, to: "old.jsonl")
        #expect(try ask.run(["index", "--corpus", corpus.path]).status == 0)
        let indexFile = ask.dataHome.url.appendingPathComponent("lantern/indexes/old.sqlite")
        try SQLiteDatabase(path: indexFile.path, readOnly: false).execute("PRAGMA user_version = 4")

        let result = try ask.run(["--index", "old", "What is alpha?"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("the index 'old' was built by an older Lantern (index format 4)"), "\(result.stderr)")
        #expect(result.stderr.contains("ask index --folder DIR --index old"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func budgetPrintsTheTableWithoutRunningTheModel() throws {
        let ask = try AskProcess()
        let question = "Which trails in Utah have a rating of 5?"
        let table = try ask.run(["budget", "--context", "4k", question])
        #expect(table.status == 0, "\(table.stderr)")
        for label in ["instructions", "spotlight_search", "fetch_item", "new prompt", "reserved answer", "total", "remaining"] {
            #expect(table.stdout.contains(label), "missing \(label): \(table.stdout)")
        }
        #expect(table.stdout.contains("4,096"))

        func report(_ guide: String) throws -> [String: Any] {
            let result = try ask.run(["budget", "--json", "--context", "8k", "--guide", guide, question])
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
        let focused = try report("focused"), complete = try report("complete")
        for report in [focused, complete] {
            let sections = try #require(report["sections"] as? [[String: Any]])
            let sum = sections.compactMap { $0["tokens"] as? Int }.reduce(0, +)
            #expect(report["totalTokens"] as? Int == sum, "the sections add up to the total")
            #expect(report["window"] as? Int == 8192)
            #expect((report["remainingTokens"] as? Int).map { $0 == 8192 - sum } == true)
        }
        #expect((complete["totalTokens"] as? Int ?? 0) > (focused["totalTokens"] as? Int ?? 0), "the complete guide costs more")

        let tooSmall = try ask.run(["budget", "--context", "512", question])
        #expect(tooSmall.status == 1)
        #expect(tooSmall.stdout.contains("does not fit"))
    }

    /// `--show-system-prompt` prints the text the counts are of, before the table; without it
    /// only the table is printed.
    @Test func budgetShowsTheSystemTurnItCounts() throws {
        let ask = try AskProcess()
        let shown = try ask.run(["budget", "--show-system-prompt", "--guide", "complete"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let definition = try #require(shown.stdout.range(of: "\"name\": \"spotlight_search\""), "\(shown.stdout)")
        let table = try #require(shown.stdout.range(of: "Token budget for"), "\(shown.stdout)")
        #expect(definition.lowerBound < table.lowerBound)
        #expect(shown.stdout.contains("\"name\": \"fetch_item\""))
        #expect(shown.stdout.contains("The index holds"), "the instructions are part of the system turn")
        let plain = try ask.run(["budget", "--guide", "complete"])
        #expect(!plain.stdout.contains("\"name\": \"spotlight_search\""))
    }
}
