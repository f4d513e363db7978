import LocalModel
import SearchIndex

/// The search tool's `EvidenceRanker`: what its searches and fetches showed, ordered by the
/// user's question before the answer round, through the index's own words and meaning
/// (`SearchableIndex.rankSentences`). The search found the items by the model's query; a small
/// model then quotes the first sentence it is offered, so the first offered must be the one
/// that answers what was asked.
///
/// The words that name what kind of thing is asked for ("trails" in "Which trails…") are left
/// out of the words: a sentence holding only them is no evidence.
///
/// A tool's own result (`CitableSource.Kind.result`: a count, groups, a statistic, the matches'
/// titles) comes first when the question asks for a number ("how many", "each", "average") or
/// for several items ("Which trails…"): it is then the answer, whatever words it shares with
/// the question (and when the tool computed what the question asks, a quoted answer begins
/// with it: `CitableSource.answersQuestion`).
struct QuestionEvidenceRanker: EvidenceRanker {
    let resolver: SourceResolver

    func rank(_ evidence: [Evidence], for question: String) async throws -> [RankedEvidence] {
        guard let index = try await resolver.sources().first?.index, !evidence.isEmpty else {
            return evidence.map { RankedEvidence($0, isRelated: true) }
        }
        let answerType = QuestionVocabulary.answerTypeWords(in: question)
        let words = QuestionVocabulary.words(in: question).filter { !answerType.contains($0) }
        let ranking = try await index.rankSentences(evidence.map(\.sentence), words: words, question: question)
        let ranked = ranking.entries.map { RankedEvidence(evidence[$0.index], isRelated: $0.isRelated) }
        let asked = QuestionGrounding(question: question, facts: .init())
        guard asked.asksAggregate || asked.asksWhichItems else { return ranked }
        let (results, items) = ranked.partitioned(by: { $0.evidence.kind == .result })
        return results.map { RankedEvidence($0.evidence, isRelated: true) } + items
    }
}
