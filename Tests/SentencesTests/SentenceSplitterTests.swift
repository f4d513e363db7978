import Foundation
import Testing
@testable import Sentences

/// Quote candidates from wrapped text: a sentence a PDF or hard-wrapped Markdown wraps over
/// lines is one candidate, blocks (headings, list items, table rows, pages) stay apart, and
/// every candidate is still verbatim source text with whitespace runs read as one space.
@Suite("Sentence splitter on wrapped text")
struct SentenceSplitterTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped trail maintenance handbook (20 pages) as `pdftotext -enc UTF-8 FILE -` reads
    /// it, as the files source does: lines wrapped at the page width, a form feed after each page.
    static func handbookText() throws -> String {
        return try pdfText(Self.repository.appendingPathComponent("Sources/Evaluations/Samples/long-documents/trail-maintenance-handbook.pdf"))
    }

    /// A PDF's text as `pdftotext -enc UTF-8 FILE -` reads it, as the files source does.
    static func pdfText(_ file: URL) throws -> String {
        String(decoding: try output(of: "/usr/bin/pdftotext", ["-enc", "UTF-8", file.path, "-"]), as: UTF8.self)
    }

    /// What a program writes to stdout; the test fails unless it exits 0.
    static func output(of program: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(program) exited \(process.terminationStatus)")
        return data
    }

    /// What scripts/make-long-documents.py wrote into `file` (a path in the repository): its
    /// sentences, headings and lines.
    static func writtenUnits(of file: String) throws -> Set<String> {
        let data = try output(of: "/usr/bin/python3", [Self.repository.appendingPathComponent("scripts/make-long-documents.py").path, "--units"])
        struct Document: Decodable { var file: String; var units: [String] }
        let documents = try data.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(Document.self, from: Data($0)) }
        return Set(try #require(documents.first { $0.file == file }).units.map { VerbatimText.normalized($0) })
    }

    @Test func aTwoColumnPDFAndHardWrappedMarkdownAreReadInTheSentencesWritten() throws {
        let pdf = "Tests/SearchIndexTests/Fixtures/text/two-column-field-guide.pdf"
        let markdown = "Tests/SearchIndexTests/Fixtures/text/hard-wrapped-orchard-notes.md"
        let pdfText = try Self.pdfText(Self.repository.appendingPathComponent(pdf))
        let markdownText = try String(contentsOf: Self.repository.appendingPathComponent(markdown), encoding: .utf8)
        #expect(markdownText.contains("on the\nnursery bed"), "the fixture wraps its sentences")
        for (file, text) in [(pdf, pdfText), (markdown, markdownText)] {
            let written = try Self.writtenUnits(of: file)
            let sentences = SentenceSplitter.sentences(in: text).map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
                .map { $0.hasPrefix("#") ? String($0.drop { $0 == "#" }.dropFirst()) : $0 }
            #expect(sentences.count > 150)
            let notWritten = sentences.filter { !written.contains($0) }
            #expect(notWritten.isEmpty, "\(file): \(notWritten.prefix(3))")
        }
    }

    @Test func aPDFSentenceWrappedOverThreeLinesIsOneCandidate() throws {
        let text = try Self.handbookText()
        #expect(text.contains("The washed-out switchback\nbelow Cutler Saddle"), "the fixture wraps the fact sentence")
        let sentences = SentenceSplitter.sentences(in: text)
        #expect(sentences.contains("The washed-out switchback below Cutler Saddle was rebuilt with 14 locust-wood check steps "
                                   + "and signed off by crew leader Adaeze Okafor."))
        #expect(sentences.contains("A tread outslope of 8 percent keeps water moving across instead of down the trail."))
    }

    @Test func headingsFootersAndPagesStayApartAndEveryCandidateIsVerbatim() throws {
        let text = try Self.handbookText()
        let sentences = SentenceSplitter.sentences(in: text)
        #expect(sentences.contains("1.1 Tool safety"))
        #expect(sentences.contains("Trail Maintenance Handbook - page 1 of 20"))
        #expect(!sentences.contains { $0.contains("Tool safety In") || $0.contains("of 20 1.") })
        let normalized = VerbatimText.normalized(text)
        let notVerbatim = sentences.filter { !VerbatimText.contains($0, inNormalized: normalized) }
        #expect(notVerbatim.isEmpty, "\(notVerbatim.prefix(3))")
        #expect(!sentences.contains { $0.contains("\n") || $0.contains("\u{0C}") || $0.contains("  ") })
    }

    @Test func hardWrappedMarkdownJoinsParagraphLinesButNotBlocks() {
        let text = """
        # Kayak trip
        We paddled the kayak to the red
        lighthouse on Saturday and saw
        seals on the rocks. Marguerite steered.

        - first item that wraps onto
          the next line
        - second item
        | day | miles |
        | Sat | 4 |
        """
        let sentences = SentenceSplitter.sentences(in: text)
        #expect(sentences == ["# Kayak trip", "We paddled the kayak to the red lighthouse on Saturday and saw seals on the rocks.",
                              "Marguerite steered.", "- first item that wraps onto the next line", "- second item",
                              "| day | miles |", "| Sat | 4 |"])
    }

    @Test func aShortLineBeforeACapitalisedLineIsNotAWrap() {
        // a result's title over its description: two lines, no width to have wrapped at
        let sentences = SentenceSplitter.sentences(in: "Mist Trail to Vernal Fall\nGranite staircase beside Vernal Fall, soaked by spray.")
        #expect(sentences == ["Mist Trail to Vernal Fall", "Granite staircase beside Vernal Fall, soaked by spray."])
    }

    /// A text and the sentences a person reads in it.
    struct SplitCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var text: String
        var sentences: [String]

        init(_ name: String, _ text: String, _ sentences: String...) {
            (testDescription, self.text, self.sentences) = (name, text, sentences)
        }
    }

    static let cases = [
        SplitCase("abbreviations, numbers, versions and code end no sentence",
            "Carry approx. 3.5 l of water, e.g. in two bottles. Mt. Tom rises above the pass. "
            + "Version 1.2.3 fixed `index.refresh()` at 5 p.m. today! Did it hold? \"Yes.\" She checked.",
            "Carry approx. 3.5 l of water, e.g. in two bottles.", "Mt. Tom rises above the pass.",
            "Version 1.2.3 fixed `index.refresh()` at 5 p.m. today!", "Did it hold?", "\"Yes.\"", "She checked."),
        SplitCase("a heading is never glued to the sentence after it",
            "2.3 Drainage\nA tread outslope of 8 percent keeps water moving.\n\n## Check steps\nLocust wood lasts longest.",
            "2.3 Drainage", "A tread outslope of 8 percent keeps water moving.", "## Check steps", "Locust wood lasts longest."),
        SplitCase("titles, a leading number and a sentence that starts with a number (ICU's own rules miss them)",
            "1. Crew Safety ... page 2\n"
            + "The probe was returned to the supplier by Dr. Leilani Kahale in Jan. 2024. We went over budget. "
            + "3 coats of limewash followed. The answer was no. We left at St. Mary's gate.",
            "1. Crew Safety ... page 2", "The probe was returned to the supplier by Dr. Leilani Kahale in Jan. 2024.",
            "We went over budget.", "3 coats of limewash followed.", "The answer was no.", "We left at St. Mary's gate."),
        SplitCase("a numbered heading stands alone; a number, a decimal or a name after a semicolon wraps",
            "5.3 Inventory\n7 pairs of fulmars were seen near the lower meadow.\nCold-fill pressure should be about\n"
            + "1.4 bar, rising no more than half a bar when hot.\nEntry 570 in the species list is now confirmed;\nMateo photographed it.",
            "5.3 Inventory", "7 pairs of fulmars were seen near the lower meadow.",
            "Cold-fill pressure should be about 1.4 bar, rising no more than half a bar when hot.",
            "Entry 570 in the species list is now confirmed; Mateo photographed it."),
    ]

    @Test(arguments: cases)
    func textIsReadInTheSentencesAPersonReads(_ split: SplitCase) {
        #expect(SentenceSplitter.sentences(in: split.text) == split.sentences)
    }

    @Test func rangesAreTheSentencesInTheTextItself() {
        let text = "  Der Weg führt über 3 Brücken.\nDanach 🌲🌲 Wald — 2,5 km.\n\n山道は急です。水を持ってください。  "
        let ranges = SentenceSplitter.sentenceRanges(in: text)
        #expect(ranges.map { String(text[$0]) } == ["Der Weg führt über 3 Brücken.", "Danach 🌲🌲 Wald — 2,5 km.", "山道は急です。", "水を持ってください。"])
        #expect(ranges.map { VerbatimText.normalized(text[$0]) } == SentenceSplitter.sentences(in: text))
    }

    @Test func manyThreadsSplitAtOnceAsOneDoes() async {
        // each thread keeps its own ICU iterator
        let texts = (0..<64).map { "Note \($0): the ranger at Mt. Tom logged \($0).5 km. It rained at noon. Then it cleared." }
        let expected = texts.map(SentenceSplitter.sentences(in:))
        let results = await withTaskGroup(of: (Int, [String]).self) { group in
            for (index, text) in texts.enumerated() { group.addTask { (index, SentenceSplitter.sentences(in: text)) } }
            var results = [[String]](repeating: [], count: texts.count)
            for await (index, sentences) in group { results[index] = sentences }
            return results
        }
        #expect(results == expected)
        #expect(expected[7] == ["Note 7: the ranger at Mt. Tom logged 7.5 km.", "It rained at noon.", "Then it cleared."])
    }

}
