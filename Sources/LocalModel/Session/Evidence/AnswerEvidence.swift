/// The sentences one answer round may quote, and the sources it may cite: what the tools showed,
/// ranked by the question (`EvidenceRanker`) and cut.
///
/// Quote grammars offer the candidates in this order and each at most once, in order, so the
/// first quote a model writes is the best one it was offered; a cut keeps the sentences that do
/// not relate to the question out of reach, and a source none of whose sentences relates is not
/// offered at all. When nothing relates, the best `maximumQuotes` are offered anyway: an answer
/// round needs something to say, and saying it with its citation lets the reader judge.
struct AnswerEvidence: Sendable, Hashable {
    /// How many sentences a quote answer may choose from. Measured over the shipped samples
    /// (Benchmarks/RESULTS.md, evaluation): offering every sentence let a model take the first
    /// shown, however unrelated.
    static let maximumQuotes = 8

    /// The quotable sentences, best first.
    let quotes: [Evidence]
    /// The sources the answer may cite: those of the quotes, in the quotes' order.
    let sourceIDs: [String]
    /// The first quote answers the question (`Evidence.answersQuestion`): a quote answer begins
    /// with it.
    let firstQuoteAnswers: Bool

    /// Everything shown, in the order shown (no ranker).
    init(unranked sources: ResponseSources) {
        quotes = sources.evidence
        sourceIDs = sources.identifiers
        firstQuoteAnswers = false
    }

    /// The shown sentences ranked by `ranker`, related ones first, cut to `maximumQuotes`.
    init(_ sources: ResponseSources, question: String, ranker: any EvidenceRanker) async throws {
        let ranked = try await ranker.rank(sources.evidence, for: question)
        let related = ranked.filter(\.isRelated).map(\.evidence)
        quotes = Array((related.isEmpty ? ranked.map(\.evidence) : related).prefix(Self.maximumQuotes))
        firstQuoteAnswers = quotes.first?.answersQuestion ?? false
        var seen = Set<String>()
        sourceIDs = quotes.map(\.sourceID).filter { seen.insert($0).inserted }
    }

    var isEmpty: Bool { quotes.isEmpty }
}
