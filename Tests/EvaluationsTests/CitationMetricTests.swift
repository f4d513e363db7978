import Foundation
import Testing
import Evaluations
import LocalModel

/// Citation precision, cited-expected coverage and quote fidelity, read from scripted answers
/// over the real trails corpus and search tool (the scripted model ignores grammars, so an
/// answer can cite what it was never shown, which the metrics must catch). trail-001's
/// description is "Granite staircase beside Vernal Fall, soaked by spray at high water."; Priya
/// is in the notes of trail-001 and trail-014.
@Suite("Citation and quote metrics on scripted answers")
struct CitationMetricTests {
    @Test func markersThatNameNothingShownLowerPrecisionAndQuotesAreCheckedVerbatim() async throws {
        let sample = Scripted.sample(["trail-001", "trail-014"])
        let answer = "Granite staircase beside Vernal Fall, soaked by spray at high water. [trail-001] The Grand Canyon is wide. [trail-099]"
        let result = try await Scripted.run(sample, script: [Scripted.search(#"{"terms": ["priya"]}"#), answer])
        let m = result.metrics
        #expect(m.citationMarkers == 2 && m.validCitationMarkers == 1)
        #expect(m.citationPrecision == 0.5)
        #expect(m.citedIdentifiers == ["trail-001"])
        #expect(m.citedExpectedCoverage == 0.5)
        #expect(m.quotes == 2 && m.verbatimQuotes == 1)
        #expect(m.quoteFidelity == 0.5)
    }

    @Test func aFetchedTextAndALeadInCountAsRetrievedAndAnAnswerWithoutMarkersHasNoPrecision() async throws {
        let sample = Scripted.sample(["trail-001"])
        let fetched = try await Scripted.run(sample, script: [
            Scripted.search(#"{"terms": ["priya"]}"#), Scripted.fetch("trail-001"),
            "From your notes: Hiked with my sister Priya on a Friday in mid-June, when the Merced River was running high from snowmelt. [trail-001]",
        ])
        #expect(fetched.metrics.citationPrecision == 1)
        #expect(fetched.metrics.quoteFidelity == 1, "the quote is fetched text after a lead-in")

        let plain = try await Scripted.run(sample, script: [Scripted.search(#"{"terms": ["priya"]}"#), "The Mist Trail."])
        #expect(plain.metrics.citationPrecision == nil && plain.metrics.quoteFidelity == nil)
        #expect(plain.metrics.citedExpectedCoverage == 0)
    }

    @Test func aMarkerStatesNoFact() async throws {
        let sample = Scripted.sample(["trail-004"], facts: ["4"])
        let cited = try await Scripted.run(sample, script: [Scripted.search(#"{"terms": ["coastal"]}"#), "Lands End Coastal Trail [trail-004]"])
        #expect(cited.metrics.grounded == false && cited.metrics.missingFacts == ["4"])
        let stated = try await Scripted.run(sample, script: [Scripted.search(#"{"terms": ["coastal"]}"#), "count: 4 [spotlight_search]"])
        #expect(stated.metrics.grounded == true)
    }

    /// "priya" shows trail-001 and trail-014; the sample expects only trail-001.
    @Test func citationRelevanceIsTheShareOfCitedSourcesThatTheSampleExpects() async throws {
        let sample = Scripted.sample(["trail-001"])
        let result = try await Scripted.run(sample, script: [
            Scripted.search(#"{"terms": ["priya"]}"#),
            "Granite staircase beside Vernal Fall, soaked by spray at high water. [trail-001] Again. [trail-001] "
                + "Long climb above Grinnell Lake to the glacier and its iceberg-dotted upper lake. [trail-014] Invented. [trail-099]",
        ])
        let m = result.metrics
        #expect(m.citedIdentifiers == ["trail-001", "trail-014"], "a source counts once; a marker naming nothing shown is no source")
        #expect(m.relevantCitations == 1 && m.judgedCitations == 2)
        #expect(m.citationRelevance == 0.5)

        let uncited = try await Scripted.run(sample, script: [Scripted.search(#"{"terms": ["priya"]}"#), "The Mist Trail."])
        #expect(uncited.metrics.citationRelevance == nil && uncited.metrics.judgedCitations == 0)
    }

    /// A tool's own result (a count) is cited as the tool: shown, so precise, but no item, so
    /// neither relevant nor irrelevant to the items the question is about.
    @Test func aCitedCountIsNoItemToJudge() async throws {
        let sample = Scripted.sample(["trail-001", "trail-014"])
        let result = try await Scripted.run(sample, script: [
            Scripted.search(#"{"terms": ["priya"]}"#), Scripted.search(#"{"terms": ["priya"], "stages": [{"stage": "count"}]}"#),
            "Granite staircase beside Vernal Fall, soaked by spray at high water. [trail-001] 2 items match. [spotlight_search]",
        ])
        let m = result.metrics
        #expect(m.citedIdentifiers == ["trail-001", "spotlight_search"] && m.citationPrecision == 1)
        #expect(m.relevantCitations == 1 && m.judgedCitations == 1)
    }

    @Test func aSampleThatExpectsNoItemsJudgesNoCitationAndTheAggregatePoolsTheRest() async throws {
        let results = try await Scripted.run([Scripted.sample([]), Scripted.sample(["trail-001"]), Scripted.sample(["trail-014"])], script: [
            Scripted.search(#"{"terms": ["priya"]}"#), "Granite staircase beside Vernal Fall, soaked by spray at high water. [trail-001]",
            Scripted.search(#"{"terms": ["priya"]}"#), "Mist Trail. [trail-001] Grinnell. [trail-014]",
            Scripted.search(#"{"terms": ["priya"]}"#), "Mist Trail. [trail-001]",
        ])
        #expect(results[0].metrics.citationRelevance == nil && results[0].metrics.judgedCitations == 0)
        #expect(results[1].metrics.citationRelevance == 0.5)
        #expect(results[2].metrics.citationRelevance == 0)
        let aggregate = AggregateMetrics(results)
        #expect(aggregate.citationRelevance == 1.0 / 3.0, "pooled: 1 of the 3 cited sources judged, not the mean of 0.5 and 0")
        let report = EvaluationReport(settings: .init(model: "m", corpus: "c", samples: "s", guide: "complete", format: "compact",
                                                      contextWindow: 4096, repetitions: 1, seed: nil, today: nil, answerStyle: "quote"),
                                      results: results)
        #expect(report.table().contains("cite rel"))
        let json = try #require(try JSONSerialization.jsonObject(with: report.jsonData()) as? [String: Any])
        let aggregateJSON = try #require(json["aggregate"] as? [String: Any])
        #expect(aggregateJSON["citationRelevance"] as? Double == 1.0 / 3.0)
    }

    /// The quote grammar offers a sentence a PDF wrapped over lines with a space where the line
    /// broke; the check reads whitespace the same way (`VerbatimText`), and still rejects a
    /// change of words.
    @Test func aQuoteOfASentenceWrappedOverLinesIsVerbatim() {
        let source = CitableSource(id: "handbook.pdf", text: "The washed-out switchback\nbelow Cutler Saddle was rebuilt with 14 locust-wood\n"
                                   + "check steps.  It held.\u{0C}Next page.")
        let wrapped = CitationCheck(answer: "The washed-out switchback below Cutler Saddle was rebuilt with 14 locust-wood check steps. [handbook.pdf] "
                                    + "It held. [handbook.pdf]", sources: [source], toolOutputs: [])
        #expect(wrapped.quotes == 2 && wrapped.verbatimQuotes == 2)
        let changed = CitationCheck(answer: "The switchback below Cutler Saddle was rebuilt. [handbook.pdf]", sources: [source], toolOutputs: [])
        #expect(changed.quotes == 1 && changed.verbatimQuotes == 0)
    }

    @Test func theAggregatePoolsMarkersAndQuotes() async throws {
        let results = try await Scripted.run([Scripted.sample(["trail-001"]), Scripted.sample(["trail-001"])], script: [
            Scripted.search(#"{"terms": ["priya"]}"#), "Granite staircase beside Vernal Fall, soaked by spray at high water. [trail-001]",
            Scripted.search(#"{"terms": ["priya"]}"#), "Invented. [trail-001] Also invented. [nowhere] More. [nothing]",
        ])
        let aggregate = AggregateMetrics(results)
        #expect(aggregate.citationPrecision == 2.0 / 4.0)
        #expect(aggregate.quoteFidelity == 1.0 / 4.0)
        #expect(aggregate.citedExpectedCoverage == 1)
    }
}
