import Testing
@testable import LocalModel

/// The quote candidates of a response's sources: each source's sentences, fields and cut
/// snippets apart, what would read as a citation marker or a bare header left out.
@Suite("Response sources")
struct ResponseSourcesTests {
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

    /// Two searches that match the same items say the same "2 items matched: …": one candidate,
    /// cited to the first; an item's sentence stays a candidate of every item that shows it.
    @Test func aToolsResultSaidByTwoCallsIsOneCandidate() {
        let list = "2 items matched: Mist Trail to Vernal Fall, Grinnell Glacier Trail"
        let entries = ["spotlight_search", "spotlight_search-2"].map { id in
            Transcript.Entry.toolOutput(.init(id: id, toolName: "spotlight_search", text: "", sources: [
                CitableSource(id: id, text: list, kind: .result), CitableSource(id: "trail-\(id.count)", text: "Hiked with Priya."),
            ]))
        }
        let evidence = ResponseSources(entries).evidence
        #expect(evidence.filter { $0.sentence == list }.map(\.sourceID) == ["spotlight_search"])
        #expect(evidence.filter { $0.sentence == "Hiked with Priya." }.count == 2)
    }

    @Test func headersBracketsAndFragmentsAreNoCandidates() {
        let source = CitableSource(id: "note", text: "text (passage 0 of 1, line 1):\nThe boiler lost pressure.\n[text cut: 80 more characters left out]\n---\nIt was fixed.")
        // the zlib licence's snippet, cut after "It": SmolLM2's whole answer was "It… [1]"
        let snippet = CitableSource(id: "copyright", text: "…version of the zlib compression\n library.  It…")
        let output = Transcript.Entry.toolOutput(.init(id: "call", toolName: "tool", text: "", sources: [source, snippet], isError: false))
        #expect(ResponseSources([output]).sentences == ["The boiler lost pressure.", "It was fixed.", "…version of the zlib compression library."])
    }
}
