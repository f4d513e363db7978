import Foundation
import Testing
import Evaluations
import LocalModel
import SearchIndex
import SearchTool

/// What the metrics read comes from the transcript alone: each search call's output carries its
/// replies (the ones `searchResults` streams), each fetch its item, paired with the call by id.
@Suite("Observations read from the transcript")
struct ObservationTests {
    @Test func eachCallsOutputCarriesItsOwnResults() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-observation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = try SearchableIndex(url: folder.appendingPathComponent("corpus.sqlite"), timeZone: Scripted.utc)
        try await index.indexSearchableItems(try Scripted.corpus())
        let setup = try await SearchSetup(index: index, guide: .complete)
        // two searches in one turn, then a fetch and a repeat of the first search
        let model = ScriptedLanguageModel([
            Scripted.search(#"{"terms": ["priya"]}"#) + "\n" + Scripted.search(#"{"terms": ["headlamp"]}"#),
            Scripted.fetch("trail-008") + "\n" + Scripted.search(#"{"terms": ["priya"]}"#),
            "Done.",
        ])
        let (session, tool) = setup.makeSession(model: model, window: nil, thinking: false)
        let streamed = Task { await tool.searchResults.reduce(into: [SearchReply]()) { $0.append($1) } }
        let response = try await session.respond(to: "Which trails?", options: GenerationOptions(toolCallingMode: .allowed))
        tool.finish()

        let observation = SampleObservation(answer: response.content, entries: Array(response.transcriptEntries))
        #expect(Set(observation.replies) == Set(await streamed.value), "the transcript carries every reply the stream did")
        let outputs = response.transcriptEntries.compactMap { entry -> Transcript.ToolOutput? in
            if case .toolOutput(let output) = entry { output } else { nil }
        }
        #expect(outputs.map(\.toolName) == ["spotlight_search", "spotlight_search", "fetch_item", "spotlight_search"])
        let found = outputs.prefix(2).map { Set($0.structuredContents(as: SearchReply.self).flatMap(\.content.items).map(\.uniqueIdentifier)) }
        #expect(found == [["trail-001", "trail-014"], ["trail-008", "trail-011"]], "each search's replies are its own, whatever order the calls ran in")
        let tokens = outputs.prefix(2).map { Set($0.structuredContents(as: SearchReply.self).map(\.queryToken)) }
        #expect(tokens.allSatisfy { $0.count == 1 } && tokens[0] != tokens[1], "one query per output")
        #expect(outputs[2].structuredContents(as: SearchableItem.self).map(\.uniqueIdentifier) == ["trail-008"])
        #expect(outputs[3].repeatedCallID == outputs[0].id && outputs[3].segments.count == 1, "a repeat was not run: its earlier output stands")
    }
}
