import Foundation
import Testing

/// Real questions with the real default model, run through the binary. Serialized: each loads
/// the model, and the machine has two cores. Rounds are capped with --max-tokens (enough for a
/// tool call) to keep the suite short; what is checked is the shape, the retrieval and the exit codes, not the prose.
///
/// What the model writes changes with the CPU kernels ggml picks, so nothing here rests on its
/// choices: which terms it searches, whether results come back, which tool it reads an image
/// with, what it answers, or whether it answers at all rather than calling again when it must
/// answer (the session's typed round-limit error, which `ask` reports on one line, exit code 1).
@Suite(.serialized) struct AskModelTests {
    /// Whether `ask` ended with the session's round-limit error: the model kept calling tools
    /// when it had to answer. One of the two endings the model chooses between.
    static func endedAtTheRoundLimit(_ result: AskProcess.Result) -> Bool {
        result.status == 1 && result.stderr.hasPrefix("ask: error: the model called tools for ")
            && result.stderr.split(separator: "\n").count == 1
    }

    /// The first round must call a tool, and until a search has shown items the search (or an
    /// image tool, with an image attached) is the only one it can call; only the token limit
    /// can cut that call off before it parses.
    static func expectTheFirstStepIsACall(_ trace: [[String: Any]], tools: [String] = ["spotlight_search"]) {
        guard let first = trace.first else {
            Issue.record("the trace is empty")
            return
        }
        let tool = first["tool"] as? String ?? ""
        let cutOff = tool == "(malformed call)" && (first["error"] as? String ?? "").hasPrefix("Error: the call was cut off before </tool_call>")
        #expect(tools.contains(tool) || cutOff, "\(first)")
    }

    @Test func jsonAnswerOverTheSampleCorpus() throws {
        let ask = try AskProcess()
        let result = try ask.run(AskProcess.modelArguments + ["--json", "--max-tokens", "120", "Which trails in California have water features?"])
        // The sample index was built on first run inside this test's data folder.
        #expect(FileManager.default.fileExists(atPath: ask.dataHome.url.appendingPathComponent("lantern/indexes/sample.sqlite").path))
        if Self.endedAtTheRoundLimit(result) {
            #expect(result.stdout.isEmpty, "no report after an error")
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(object["answer"] is String)

        let trace = try #require(object["trace"] as? [[String: Any]])
        Self.expectTheFirstStepIsACall(trace)
        let searches = trace.filter { $0["tool"] as? String == "spotlight_search" }
        for search in searches where search["error"] == nil {
            #expect(search["arguments"] is [String: Any])
            #expect(search["results"] is Int)
        }
        // a repeated call was not run again, and reports what the same earlier call returned
        for (position, step) in trace.enumerated() where step["repeated"] as? Bool == true {
            let earlier = trace[..<position].first { NSDictionary(dictionary: $0["arguments"] as? [String: Any] ?? [:])
                .isEqual(to: step["arguments"] as? [String: Any] ?? [:]) && $0["tool"] as? String == step["tool"] as? String }
            #expect(earlier?["items"] as? [String] == step["items"] as? [String], "\(step)")
        }

        // Sources are items of the sample corpus, with titles from the index: every item a
        // search returned is one. A cited source may also be a search's output itself (a count,
        // named after the tool), which has no title.
        let corpus = try String(contentsOf: AskProcess.repository.appendingPathComponent("Sources/Evaluations/Samples/trails.jsonl"), encoding: .utf8)
        let ids = Set(corpus.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        })
        let sources = try #require(object["sources"] as? [[String: Any]])
        if searches.contains(where: { ($0["results"] as? Int ?? 0) > 0 }) { #expect(!sources.isEmpty, "results but no sources") }
        for source in sources where source["citation"] == nil {
            #expect(ids.contains(source["id"] as? String ?? ""), "\(source)")
            #expect(source["title"] is String)
        }

        let timings = try #require(object["timings"] as? [String: Any])
        for key in ["load", "retrieval", "prefill", "decode", "firstGenerated"] { #expect(timings[key] is Double, "timings.\(key)") }
        let tokens = try #require(object["tokens"] as? [String: Int])
        #expect((tokens["prompt"] ?? 0) > 0)
        #expect((tokens["generated"] ?? 0) > 0)
        #expect(tokens["cached"] != nil)
    }

    /// `--answer` chooses the style, `--json` reports it and numbers the cited sources: every
    /// marker in the answer names a listed source, and each cited source's marker is in the
    /// answer. Whatever the model wrote, no tool framing reaches the answer.
    @Test(arguments: ["quote", "prose"])
    func theAnswerFlagChoosesTheStyleAndJSONNumbersTheCitedSources(style: String) throws {
        let result = try AskProcess().run(AskProcess.modelArguments + ["--json", "--answer", style, "--max-tokens", "160", "Which trails in California have water features?"])
        if Self.endedAtTheRoundLimit(result) { return }
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(object["answerStyle"] as? String == style)
        let answer = try #require(object["answer"] as? String)
        #expect(!answer.contains("tool_response"), "\(answer)")
        let sources = try #require(object["sources"] as? [[String: Any]])
        let cited = sources.filter { $0["citation"] != nil }
        #expect(cited.compactMap { $0["citation"] as? Int } == Array(stride(from: 1, through: cited.count, by: 1)))
        for source in cited { #expect(answer.contains("[\(source["id"] as? String ?? "")]"), "\(source) in \(answer)") }
        let listed = Set(sources.compactMap { $0["id"] as? String })
        for marker in answer.matches(of: /\[([^\]\n]*)\]/).map({ String($0.1) }) {
            #expect(listed.contains(marker) && cited.contains { $0["id"] as? String == marker }, "[\(marker)] in \(answer)")
        }
    }

    @Test func anUnknownAnswerStyleIsAUsageErrorNamingTheChoices() throws {
        let result = try AskProcess().run(["--answer", "poetry", "Which trails?"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("auto") && result.stderr.contains("quote") && result.stderr.contains("prose"), "\(result.stderr)")
    }

    /// The image tools are offered with the attachment's label the only one their grammar
    /// admits; whether the model reads the image or searches the notebook is its choice (the
    /// file name sways it: with "img-qr.png" it read the image here, with "box-photo.png" it
    /// searched). Whichever it calls, an image call names "parcel" and runs, and the barcode
    /// reader's output holds the payload.
    @Test func anAttachedQRCodeIsReadByAnImageToolUnderItsLabel() throws {
        let ask = try AskProcess()
        let image = ask.dataHome.url.appendingPathComponent("img-qr.png")
        let payload = "PARCEL-\(Int.random(in: 100_000...999_999))"
        let qrencode = Process()
        qrencode.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        qrencode.arguments = ["qrencode", "-s", "6", "-m", "4", "-o", image.path, payload]
        try qrencode.run()
        qrencode.waitUntilExit()
        try #require(qrencode.terminationStatus == 0, "qrencode failed (run scripts/setup.sh)")

        let result = try ask.run(AskProcess.modelArguments + ["--json", "--trace", "--max-tokens", "120", "--image", image.path + ":parcel", "What does the code in parcel say?"])
        if Self.endedAtTheRoundLimit(result) { return }
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let trace = try #require(object["trace"] as? [[String: Any]])
        Self.expectTheFirstStepIsACall(trace, tools: ["read_barcodes", "read_text", "spotlight_search"])
        let imageCalls = trace.filter { ["read_barcodes", "read_text"].contains($0["tool"] as? String ?? "") }
        for call in imageCalls {
            #expect((call["arguments"] as? [String: Any])?["image"] as? String == "parcel", "\(call)")
            #expect(call["error"] == nil, "\(call)")
        }
        // --trace: the prompt carries the attachment, and the barcode reader read the payload
        let transcript = try #require(object["transcript"] as? [[String: Any]])
        let prompt = transcript.first { $0["kind"] as? String == "prompt" }?["text"] as? String ?? ""
        #expect(prompt.contains("[image attached: \"parcel\" (img-qr.png)]"), "\(prompt)")
        let reads = transcript.filter { $0["kind"] as? String == "tool output (read_barcodes)" }.compactMap { $0["text"] as? String }
        #expect(reads.count <= imageCalls.count)
        for text in reads where !text.hasPrefix("This call repeats an earlier one") {
            #expect(text.contains(payload), "\(text)")
        }
    }

    @Test func indexAFolderThenAskAboutIt() throws {
        let ask = try AskProcess()
        let notes = try TemporaryFolder()
        try notes.write("# Kayak trip\n\nWe paddled the kayak to the red lighthouse on Saturday and saw seals.\n", to: "kayak.md")
        try notes.write("# Kayak repair\n\nThe kayak hull was patched with epoxy by Marguerite.\n", to: "repair.md")
        try notes.write("# Garden\n\nPlanted tomatoes and basil along the fence.\n", to: "sub/garden.md")

        let indexed = try ask.run(["index", "--folder", notes.url.path, "--index", "notes"])
        #expect(indexed.status == 0, "\(indexed.stderr)")
        #expect(indexed.stdout.contains("indexed 3 files"), "\(indexed.stdout)")

        let result = try ask.run(AskProcess.modelArguments + ["--index", "notes", "--json", "--max-tokens", "120", "Where did we paddle the kayak?"])
        if Self.endedAtTheRoundLimit(result) { return }
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let trace = try #require(object["trace"] as? [[String: Any]])
        Self.expectTheFirstStepIsACall(trace)
        // the sources are the notes the searches returned (which ones depends on the model's terms)
        let sources = try #require(object["sources"] as? [[String: Any]])
        if trace.contains(where: { $0["tool"] as? String == "spotlight_search" && ($0["results"] as? Int ?? 0) > 0 }) {
            #expect(!sources.isEmpty, "results but no sources")
        }
        let folder = notes.url.resolvingSymlinksInPath().path
        for source in sources {
            let path = try #require(source["path"] as? String)
            #expect(path.hasPrefix(folder), "\(path) is one of the notes")
            #expect(["kayak.md", "repair.md", "garden.md"].contains(URL(fileURLWithPath: path).lastPathComponent), "\(path)")
        }
    }

    @Test func textOutputStreamsTraceThenAnswerThenSources() throws {
        let result = try AskProcess().run(AskProcess.modelArguments + ["--max-tokens", "120", "--format", "compact", "Which trails are in Utah?"])
        // the trace streams before the end, so it is checked either way the model ends
        #expect(result.status == 0 || Self.endedAtTheRoundLimit(result), "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        // the required search comes first, before any answer text
        let first = try #require(lines.first.map(String.init), "\(result.stdout)")
        let cutOff = first.hasPrefix("· (malformed call) failed: Error: the call was cut off before </tool_call>")
        #expect((first.hasPrefix("· search ") && first.contains("→")) || cutOff, "\(result.stdout)")
        // Sources, when a search returned any, come after the trace
        if let sources = lines.firstIndex(where: { $0 == "Sources:" }) { #expect(sources > 0) }
        // Not a terminal: no progress bars or escape codes anywhere.
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(!result.stderr.contains("\u{1B}["))
    }

    @Test func ctrlCStopsTheAnswerAndExitsWith130() throws {
        let ask = try AskProcess()
        // SIGINT as soon as the first trace line is out: the model is generating the answer.
        let result = try ask.run(AskProcess.modelArguments + ["--max-tokens", "400", "Tell me everything about every trail in California."]) { process in
            kill(process.processIdentifier, SIGINT)
        }
        #expect(!result.killedBySignal, "the signal was handled, not fatal")
        #expect(result.status == 130, "\(result.stdout)\n\(result.stderr)")
        #expect(!result.stdout.contains("Sources:"), "stopped before the end")
    }

    /// Each piped question is answered in turn. A question that ends at the round limit ends
    /// the run there (exit code 1, not interactive), which is the model's choice; the questions
    /// answered before it are reported.
    @Test func questionsPipedWithoutAQuestionAreEachAnswered() throws {
        let ask = try AskProcess()
        let process = ask.process(AskProcess.modelArguments + ["--json", "--max-tokens", "120"])
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("Which trails are in Utah?\n\nWhich trails are in Colorado?\n".utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let questions = text.components(separatedBy: "\"question\" : ").dropFirst().map { String($0.prefix(while: { $0 != "\n" })) }
        let asked = ["\"Which trails are in Utah?\",", "\"Which trails are in Colorado?\","]
        let result = AskProcess.Result(status: process.terminationStatus, stdout: text, stderr: errorText, killedBySignal: false)
        if Self.endedAtTheRoundLimit(result) {
            #expect(questions.count < asked.count && Array(asked.prefix(questions.count)) == questions, "\(text)")
        } else {
            #expect(process.terminationStatus == 0, "\(errorText)")
            #expect(questions == asked, "\(text)")
        }
    }
}
