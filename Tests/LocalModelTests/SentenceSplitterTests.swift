import Foundation
import Testing
@testable import LocalModel

/// Quote candidates from wrapped text: a sentence a PDF or hard-wrapped Markdown wraps over
/// lines is one candidate, blocks (headings, list items, table rows, pages) stay apart, and
/// every candidate is still verbatim source text with whitespace runs read as one space.
@Suite("Sentence splitter on wrapped text")
struct SentenceSplitterTests {
    /// The shipped trail maintenance handbook (20 pages) as `pdftotext -enc UTF-8 FILE -` reads
    /// it, as the files source does: lines wrapped at the page width, a form feed after each page.
    static func handbookText() throws -> String {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = ["-enc", "UTF-8",
                             repository.appendingPathComponent("Sources/Evaluations/Samples/long-documents/trail-maintenance-handbook.pdf").path, "-"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
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

    @Test func aFetchedItemsFieldsAndACutSnippetStayApart() {
        // the README question with Qwen2.5-Coder-1.5B in quote mode: the search showed a snippet
        // cut at "YOS-24…", then the item was fetched; one source holds both, and its quote was
        // "Our day-use reservation code was YOS-24… id: trail-001 city: Yosemite Valley …"
        let result = CitableSource(id: "trail-001", text: "Mist Trail to Vernal Fall\n…by the footbridge, the last potable water on the route. "
                                   + "Our day-use reservation code was YOS-24…")
        let fetched = CitableSource(id: "trail-001", text: """
            id: trail-001
            city: Yosemite Valley
            contentDescription: Granite staircase beside Vernal Fall, soaked by spray at high water.
            distanceKilometers: 5.4
            text (passage 0 of 1, line 1):
            Filled bottles at the drinking fountain. Our day-use reservation code was YOS-24-58812.
            """)
        let output = { (id: String, source: CitableSource) in
            Transcript.Entry.toolOutput(.init(id: id, toolName: "tool", text: "", sources: [source], isError: false))
        }
        let sentences = ResponseSources([output("call-1", result), output("call-2", fetched)]).evidence.map(\.sentence)
        #expect(sentences == ["Mist Trail to Vernal Fall", "…by the footbridge, the last potable water on the route.",
                              "Our day-use reservation code was YOS-24…", "id: trail-001", "city: Yosemite Valley",
                              "contentDescription: Granite staircase beside Vernal Fall, soaked by spray at high water.",
                              "distanceKilometers: 5.4", "Filled bottles at the drinking fountain.",
                              "Our day-use reservation code was YOS-24-58812."])
    }

    @Test func aShortLineBeforeACapitalisedLineIsNotAWrap() {
        // a result's title over its description: two lines, no width to have wrapped at
        let sentences = SentenceSplitter.sentences(in: "Mist Trail to Vernal Fall\nGranite staircase beside Vernal Fall, soaked by spray.")
        #expect(sentences == ["Mist Trail to Vernal Fall", "Granite staircase beside Vernal Fall, soaked by spray."])
    }
}
