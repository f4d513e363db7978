import Foundation
import Testing

/// Real questions with the real default model, run through the binary. Serialized: each loads
/// the model, and the machine has two cores. Rounds are capped with --max-tokens (enough for a
/// tool call) to keep the suite short; what is checked is the shape, the retrieval and the exit codes, not the prose.
@Suite(.serialized) struct AskModelTests {
    @Test func jsonAnswerOverTheSampleCorpus() throws {
        let ask = try AskProcess()
        let result = try ask.run(["--json", "--max-tokens", "120", "Which trails in California have water features?"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let answer = try #require(object["answer"] as? String)
        #expect(!answer.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)

        let trace = try #require(object["trace"] as? [[String: Any]])
        let searches = trace.filter { $0["tool"] as? String == "spotlight_search" }
        #expect(!searches.isEmpty, "the model searched")
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

        // Sources are items of the sample corpus, with titles from the index.
        let corpus = try String(contentsOf: AskProcess.repository.appendingPathComponent("Sources/Evaluations/Samples/trails.jsonl"), encoding: .utf8)
        let ids = Set(corpus.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        })
        let sources = try #require(object["sources"] as? [[String: Any]])
        #expect(!sources.isEmpty)
        for source in sources {
            #expect(ids.contains(source["id"] as? String ?? ""), "\(source)")
            #expect(source["title"] is String)
        }

        let timings = try #require(object["timings"] as? [String: Any])
        for key in ["load", "retrieval", "prefill", "decode"] { #expect(timings[key] is Double, "timings.\(key)") }
        let tokens = try #require(object["tokens"] as? [String: Int])
        #expect((tokens["prompt"] ?? 0) > 0)
        #expect((tokens["generated"] ?? 0) > 0)
        #expect(tokens["cached"] != nil)
        // The sample index was built on first run inside this test's data folder.
        #expect(FileManager.default.fileExists(atPath: ask.dataHome.url.appendingPathComponent("lantern/indexes/sample.sqlite").path))
    }

    @Test func anAttachedQRCodeIsReadByAnImageToolUnderItsLabel() throws {
        let ask = try AskProcess()
        // The file name is in the prompt ("[image attached: "parcel" (img-qr.png)]") and sways
        // the 135M model: with "img-qr.png" it reads the image (greedy decoding, so every run
        // alike); with "box-photo.png" or "qr-code.png" it searched the notebook instead.
        let image = ask.dataHome.url.appendingPathComponent("img-qr.png")
        let payload = "PARCEL-\(Int.random(in: 100_000...999_999))"
        let qrencode = Process()
        qrencode.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        qrencode.arguments = ["qrencode", "-s", "6", "-m", "4", "-o", image.path, payload]
        try qrencode.run()
        qrencode.waitUntilExit()
        try #require(qrencode.terminationStatus == 0, "qrencode failed (run scripts/setup.sh)")

        let result = try ask.run(["--json", "--max-tokens", "120", "--image", image.path + ":parcel", "What does the code in parcel say?"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let trace = try #require(object["trace"] as? [[String: Any]])
        let imageCalls = trace.filter { ["read_barcodes", "read_text"].contains($0["tool"] as? String ?? "") }
        #expect(!imageCalls.isEmpty, "an image tool was called: \(trace)")
        for call in imageCalls {
            #expect((call["arguments"] as? [String: Any])?["image"] as? String == "parcel", "\(call)")
            #expect(call["error"] == nil, "\(call)")
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

        let result = try ask.run(["--index", "notes", "--json", "--max-tokens", "120", "Where did we paddle the kayak?"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let trace = try #require(object["trace"] as? [[String: Any]])
        #expect(trace.contains { $0["tool"] as? String == "spotlight_search" })
        let sources = try #require(object["sources"] as? [[String: Any]])
        #expect(!sources.isEmpty)
        let folder = notes.url.resolvingSymlinksInPath().path
        for source in sources {
            let path = try #require(source["path"] as? String)
            #expect(path.hasPrefix(folder), "\(path) is one of the notes")
        }
        #expect(sources.contains { ($0["path"] as? String ?? "").contains("kayak") || ($0["path"] as? String ?? "").contains("repair") })
    }

    @Test func textOutputStreamsTraceThenAnswerThenSources() throws {
        let result = try AskProcess().run(["--max-tokens", "120", "--format", "compact", "Which trails are in Utah?"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let firstSearch = try #require(lines.firstIndex { $0.hasPrefix("· search ") }, "\(result.stdout)")
        let sources = try #require(lines.firstIndex { $0 == "Sources:" }, "\(result.stdout)")
        #expect(firstSearch < sources)
        #expect(lines[firstSearch].contains("→"))
        // Not a terminal: no progress bars or escape codes anywhere.
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(!result.stderr.contains("\u{1B}["))
    }

    @Test func ctrlCStopsTheAnswerAndExitsWith130() throws {
        let ask = try AskProcess()
        // SIGINT as soon as the first trace line is out: the model is generating the answer.
        let result = try ask.run(["--max-tokens", "400", "Tell me everything about every trail in California."]) { process in
            kill(process.processIdentifier, SIGINT)
        }
        #expect(!result.killedBySignal, "the signal was handled, not fatal")
        #expect(result.status == 130, "\(result.stdout)\n\(result.stderr)")
        #expect(!result.stdout.contains("Sources:"), "stopped before the end")
    }

    @Test func questionsPipedWithoutAQuestionAreEachAnswered() throws {
        let ask = try AskProcess()
        let process = ask.process(["--json", "--max-tokens", "120"])
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("Which trails are in Utah?\n\nWhich trails are in Colorado?\n".utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let text = String(decoding: data, as: UTF8.self)
        let questions = text.components(separatedBy: "\"question\" : ").dropFirst().map { $0.prefix(while: { $0 != "\n" }) }
        #expect(questions == ["\"Which trails are in Utah?\",", "\"Which trails are in Colorado?\","], "\(text)")
    }
}
