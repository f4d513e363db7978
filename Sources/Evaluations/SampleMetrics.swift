import Foundation
import LocalModel
import SearchTool

/// The metrics of one run of one sample. Each is computed from data the model cannot dress up:
/// identifiers in the search replies the transcript's tool outputs carry, the transcript's calls,
/// and substrings of the answer.
public struct SampleMetrics: Sendable, Hashable, Codable {
    /// Share of the expected identifiers that reached the model: items in the last reply of a
    /// search call's output (the stage output the tool wrote for the model), not in the prose.
    /// nil when the sample expects no items.
    public var resultCoverage: Double?
    /// The expected identifiers that reached the model.
    public var identifiersFound: [String]
    /// Share of the expected passages (`EvaluationSample.expectedPassages`) whose place reached
    /// the model: a final search reply's snippet from it, a fetch of it, or its whole item
    /// fetched uncut (`PassageReach`). nil when the sample expects none.
    public var passageCoverage: Double?
    /// Share of the expected items the answer cites by identifier or title (case-insensitive).
    public var answerCoverage: Double?
    /// Whether every expected fact appears in the answer (case-insensitive), citation markers
    /// left out (`[trail-004]` does not state "4"); nil when the sample lists none.
    public var grounded: Bool?
    public var missingFacts: [String]
    /// Citation markers (`[id]`) in the answer, and those that name a source the response
    /// showed (`CitationCheck`).
    public var citationMarkers: Int
    public var validCitationMarkers: Int
    /// Valid markers over all markers; nil when the answer has none.
    public var citationPrecision: Double?
    /// The shown sources the answer cites, in order.
    public var citedIdentifiers: [String]
    /// Share of the expected identifiers the answer cites with a marker; nil when the sample
    /// expects no items.
    public var citedExpectedCoverage: Double?
    /// Of the items the answer cites (`citedIdentifiers` that name an item, not a tool's own
    /// result such as a count, which is no item to be relevant or not), how many are among the
    /// sample's expected items, and how many were judged: all of them, or none when the sample
    /// expects no items (nothing to judge a citation by).
    public var relevantCitations: Int
    public var judgedCitations: Int
    /// `relevantCitations / judgedCitations`: whether what the answer cites is what the question
    /// is about, where precision only says it was shown. nil when nothing was judged.
    public var citationRelevance: Double?
    /// Quotes in front of markers, and those found verbatim in the retrieved text.
    public var quotes: Int
    public var verbatimQuotes: Int
    /// Verbatim quotes over all quotes; nil when the answer has no marker with text before it.
    public var quoteFidelity: Double?
    /// Whether the answer the user reads holds a tool call in any spelling a Hermes-trained model
    /// writes (bare or fenced JSON, a tag, a list: `ToolCallSyntax.containsCall`, the session's
    /// own reader): an answer that is a call answers nothing. nil in reports from before it was counted.
    public var answerIsCall: Bool?
    /// Whether the calls met the sample's trajectory; nil when it has none.
    public var trajectoryPass: Bool?
    public var trajectoryFailure: String?
    /// The tools called, in order (malformed calls are not named).
    public var calledTools: [String]
    /// Calls attempted, malformed ones included.
    public var toolCalls: Int
    /// Calls that parsed and validated against their tool's schema.
    public var validToolCalls: Int
    /// Why invalid calls were invalid.
    public var invalidToolCallReasons: [String]
    public var latency: Latency
    public var tokens: TokenCounts

    /// `validToolCalls / toolCalls`; nil when the model made no call.
    public var validToolCallShare: Double? {
        toolCalls == 0 ? nil : Double(validToolCalls) / Double(toolCalls)
    }

    /// - Parameters:
    ///   - titles: the corpus's titles by identifier, so an answer may cite an item by name.
    ///   - schemas: the offered tools' argument schemas by wire name.
    public init(sample: EvaluationSample, observation: SampleObservation, titles: [String: String],
                schemas: [String: GenerationSchema]) {
        let expected = sample.expectedIdentifiers.uniqued()
        let received = Self.receivedIdentifiers(observation.replies)
        identifiersFound = expected.filter(received.contains)
        resultCoverage = Self.share(identifiersFound.count, of: expected.count)
        let reach = PassageReach(entries: observation.entries)
        passageCoverage = Self.share(sample.expectedPassages.filter(reach.reached).count, of: sample.expectedPassages.count)

        let answer = observation.answer
        let cited = expected.filter { id in
            answer.localizedCaseInsensitiveContains(id) || (titles[id].map { !$0.isEmpty && answer.localizedCaseInsensitiveContains($0) } ?? false)
        }
        answerCoverage = Self.share(cited.count, of: expected.count)
        answerIsCall = ToolCallSyntax.hermes.containsCall(answer)
        let check = CitationCheck(answer: answer, sources: observation.sources, toolOutputs: observation.toolOutputTexts)
        missingFacts = sample.expectedFacts.filter { !check.statement.localizedCaseInsensitiveContains($0) }
        grounded = sample.expectedFacts.isEmpty ? nil : missingFacts.isEmpty

        citationMarkers = check.markers.count
        validCitationMarkers = check.validMarkers
        citationPrecision = check.precision
        citedIdentifiers = check.citedIdentifiers
        citedExpectedCoverage = Self.share(expected.filter(check.citedIdentifiers.contains).count, of: expected.count)
        let items = Set(observation.sources.filter { $0.kind == .item }.map(\.id))
        let citedItems = check.citedIdentifiers.filter(items.contains)
        judgedCitations = expected.isEmpty ? 0 : citedItems.count
        relevantCitations = expected.isEmpty ? 0 : citedItems.filter(expected.contains).count
        citationRelevance = Self.share(relevantCitations, of: judgedCitations)
        quotes = check.quotes
        verbatimQuotes = check.verbatimQuotes
        quoteFidelity = check.fidelity

        let log = ToolCallLog(entries: observation.entries, schemas: schemas)
        calledTools = log.calls.map(\.toolName)
        toolCalls = log.attemptedCount
        validToolCalls = log.validCount
        invalidToolCallReasons = log.calls.compactMap { log.invalidReasons[$0.id] }
            + Array(repeating: "the session could not parse the call", count: log.malformedCount)
        if let trajectory = sample.trajectory {
            trajectoryFailure = trajectory.failure(for: log.calls)
            trajectoryPass = trajectoryFailure == nil
        } else {
            trajectoryFailure = nil
            trajectoryPass = nil
        }
        latency = observation.latency
        tokens = observation.tokens
    }

    /// Identifiers of the items in each query's final reply: what the tool rendered for the
    /// model. Earlier stages' replies are intermediate (a count stage's input never reaches the
    /// model), and a query that failed has no final reply.
    public static func receivedIdentifiers(_ replies: [SearchReply]) -> Set<String> {
        Set(replies.filter { $0.status == .complete }.flatMap { $0.content.items.map(\.uniqueIdentifier) })
    }

    private static func share(_ part: Int, of whole: Int) -> Double? {
        whole == 0 ? nil : Double(part) / Double(whole)
    }
}
