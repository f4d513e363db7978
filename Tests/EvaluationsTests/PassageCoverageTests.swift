import Foundation
import Evaluations
import LocalModel
import SearchIndex
import Testing

/// Passage coverage over the shipped long-document folder, with a scripted model: a search
/// whose snippet comes from the fact's page covers it, a fetch of that page covers it, and a
/// fetch of another page does not.
@Suite struct PassageCoverageTests {
    static let manual = "heating-service-manual.pdf"
    static let sample = EvaluationSample(
        id: "vessel", prompt: "Who recharged the expansion vessel?", expectedIdentifiers: [manual], expectedFacts: ["Petrenko"],
        expectedPassages: [ExpectedPassage(file: manual, page: 40)])

    static func run(_ script: [String]) async throws -> SampleMetrics {
        let runner = EvaluationRunner(model: ScriptedLanguageModel(script),
                                      configuration: .init(guide: .complete, timeZone: Scripted.utc, toolCallingMode: .allowed))
        let results = try await runner.run(corpus: .folder(SampleData.longDocuments), samples: [sample])
        return try #require(results.first).metrics
    }

    static func manualID() -> String {
        SampleData.longDocuments.appendingPathComponent(manual).resolvingSymlinksInPath().standardizedFileURL.path
    }

    @Test func aSnippetFromTheFactsPageCoversIt() async throws {
        let metrics = try await Self.run([Scripted.search(#"{"terms": ["petrenko"]}"#), "Oksana Petrenko."])
        #expect(metrics.resultCoverage == 1)
        #expect(metrics.passageCoverage == 1)
    }

    @Test func aFetchOfThePageCoversItAndAnotherPageDoesNot() async throws {
        let id = Self.manualID()
        // The fetch tool offers only ids a search showed: the search's snippet comes from page 3,
        // the only page with "electrical isolation".
        let search = Scripted.search(#"{"terms": ["electrical", "isolation"]}"#)
        let searched = try await Self.run([search, "Done."])
        #expect(searched.resultCoverage == 1)
        #expect(searched.passageCoverage == 0)
        let page40 = Scripted.call("fetch_item", #"{"id": "\#(id)", "page": 40}"#)
        #expect(try await Self.run([search, page40, "Done."]).passageCoverage == 1)
        let page3 = Scripted.call("fetch_item", #"{"id": "\#(id)", "page": 3}"#)
        #expect(try await Self.run([search, page3, "Done."]).passageCoverage == 0)
    }
}
