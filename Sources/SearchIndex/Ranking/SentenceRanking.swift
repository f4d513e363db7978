import Foundation

/// A few sentences ranked against a question, as the index ranks items against a query: by the
/// question's words (BM25 over the sentences, with the index's tokenizer, so `trails` matches
/// `trail` as a search would) and by meaning (the question's vector against each sentence's,
/// from the index's embedder), the two fused by `RankFusion` as hybrid search fuses them.
///
/// What an answer round quotes is ranked with this (`SearchableIndex.rankSentences`): the
/// search found the items by the model's query, and this orders what they say by the user's
/// question. A sentence that negates a word of a question that negates nothing ("there is *no
/// water* on this trail" for "which trails have water?") says the opposite of what was asked:
/// it ranks last and does not relate, however near its meaning is.
public struct SentenceRanking: Sendable, Hashable {
    /// One sentence's place and why.
    public struct Entry: Sendable, Hashable {
        /// The sentence's position in the ranked input.
        public let index: Int
        /// How many distinct question words (stems) the sentence holds.
        public let matchedWords: Int
        /// How many of them tell items apart: fewer than `commonShare` of the index's items hold
        /// them ("trail" in an index of trail notes does not).
        public let distinctiveWords: Int
        /// The cosine between the question's vector and the sentence's; nil without an embedder.
        public let similarity: Float?
        /// The sentence negates one of the question's words, and the question negates nothing.
        public let negatesQuestion: Bool

        /// Whether the sentence relates to the question at all: it does not negate it, and it
        /// holds one of its distinctive words or is at least `relatedSimilarity` near in meaning.
        public var isRelated: Bool {
            !negatesQuestion && (distinctiveWords > 0 || (similarity ?? -1) >= SentenceRanking.relatedSimilarity)
        }
    }

    /// The cosine from which a sentence counts as related by meaning alone. With
    /// all-MiniLM-L6-v2 a short sentence that merely shares the question's subject scores high:
    /// "Ryan Mountain Trail" 0.48 for "Which trails in California have water features?", where
    /// the sentence that answers it ("…soaked by spray at high water.") scores 0.26. Below 0.5,
    /// meaning alone does not make a sentence related; words still can.
    public static let relatedSimilarity: Float = 0.5

    /// A question word held by at least this share of the index's items is the index's own
    /// vocabulary ("trail" in trail notes: 14 of 14): it ranks, but does not relate.
    public static let commonShare = 0.9

    /// Every sentence once, best first.
    public let entries: [Entry]

    /// Words that negate the next few (`negationReach`), before stemming; "n't" reads as "t".
    static let negations = ["no", "not", "without", "never", "none", "nothing", "neither", "nor", "t"]
    static let negationReach = 3

    /// BM25's constants, as FTS5 uses them.
    private static let k1 = 1.2
    private static let b = 0.75

    /// Ranks sentences given as their stems, against the question's stems, with the cosines of
    /// each sentence to the question when there are vectors.
    /// `commonStems`: question words most of the index's items hold, which rank a sentence but
    /// do not make it related.
    init(sentenceStems: [[String]], questionStems: [String], commonStems: Set<String> = [], negationStems: Set<String>,
         questionNegates: Bool, similarities: [Float]?) {
        let question = Set(questionStems)
        func isNegated(_ position: Int, in stems: [String]) -> Bool {
            stems[max(0, position - Self.negationReach)..<position].contains(where: negationStems.contains)
        }
        /// The question's stems the sentence holds, each where no negation precedes it.
        func matches(_ stems: [String]) -> [String] {
            stems.indices.filter { question.contains(stems[$0]) && !isNegated($0, in: stems) }.map { stems[$0] }
        }
        let matchedStems = sentenceStems.map(matches)
        let negating = sentenceStems.map { stems in
            !questionNegates && stems.indices.contains { question.contains(stems[$0]) && isNegated($0, in: stems) }
        }
        let lengths = sentenceStems.map { Double($0.count) }
        let averageLength = max(1, lengths.reduce(0, +) / Double(max(1, lengths.count)))
        var holders: [String: Int] = [:]
        for stems in matchedStems { for stem in Set(stems) { holders[stem, default: 0] += 1 } }
        let count = Double(sentenceStems.count)
        var wordScores: [(index: Int, score: Double)] = []
        var matched: [Int] = []
        var distinctive: [Int] = []
        for (index, stems) in matchedStems.enumerated() {
            var frequencies: [String: Double] = [:]
            for stem in stems { frequencies[stem, default: 0] += 1 }
            matched.append(frequencies.count)
            distinctive.append(frequencies.keys.filter { !commonStems.contains($0) }.count)
            guard !frequencies.isEmpty else { continue }
            let score = frequencies.reduce(0.0) { sum, entry in
                let holding = Double(holders[entry.key] ?? 0)
                let idf = log(1 + (count - holding + 0.5) / (holding + 0.5))
                let frequency = entry.value
                return sum + idf * frequency * (Self.k1 + 1) / (frequency + Self.k1 * (1 - Self.b + Self.b * lengths[index] / averageLength))
            }
            wordScores.append((index, score))
        }
        let byWords = wordScores.sorted { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }.map(\.index)
        var rankings = [byWords]
        if let similarities {
            rankings.append(similarities.indices.sorted { similarities[$0] != similarities[$1] ? similarities[$0] > similarities[$1] : $0 < $1 })
        }
        let fused = RankFusion.fuse(rankings).map(\.key)
        let unranked = sentenceStems.indices.filter { !Set(fused).contains($0) }
        let order = fused + unranked
        entries = (order.filter { !negating[$0] } + order.filter { negating[$0] }).map { Entry(index: $0, matchedWords: matched[$0], distinctiveWords: distinctive[$0], similarity: similarities?[$0], negatesQuestion: negating[$0]) }
    }
}

extension SearchableIndex {
    /// `sentences` ranked against `question`: by `words` (the question's words worth matching,
    /// as the caller reads them; stop words left out) under the index's tokenizer, and, when the
    /// index has an embedder, by the meaning of `question`. Words alone without an embedder.
    public func rankSentences(_ sentences: [String], words: [String], question: String) async throws(SearchIndexError) -> SentenceRanking {
        let texts = [words.joined(separator: " "), SentenceRanking.negations.joined(separator: " "), question] + sentences
        let (stems, commonStems) = try await read { (database) throws(SearchIndexError) in
            let stems = texts.map { database.tokens(of: $0).map(\.stem) }
            return (stems, try Self.commonStems(Array(Set(stems[0])), in: database))
        }
        var similarities: [Float]?
        if let embedder, !sentences.isEmpty {
            let vectors = try await Self.embed([question] + sentences, with: embedder).map(QuantizedVector.normalized)
            similarities = vectors.dropFirst().map { vector in zip(vectors[0], vector).reduce(0) { $0 + $1.0 * $1.1 } }
        }
        let negationStems = Set(stems[1])
        return SentenceRanking(sentenceStems: Array(stems.dropFirst(3)), questionStems: stems[0], commonStems: commonStems, negationStems: negationStems,
                               questionNegates: stems[2].contains(where: negationStems.contains), similarities: similarities)
    }

    /// The stems among `stems` that at least `commonShare` of the index's items hold, from the counts
    /// the shortlists keep and the full-text table's row count; none when the index cannot say.
    private static func commonStems(_ stems: [String], in database: SQLiteDatabase) throws(SearchIndexError) -> Set<String> {
        var counts: [String: Int64] = [:]
        for stem in stems {
            if let count = try database.query("SELECT count FROM term_shortlists WHERE term = \(stem)", { $0.integer(0) }).first { counts[stem] = count }
        }
        guard let held = counts.first(where: { $0.value > 0 })?.key,
              let totals = try database.query("SELECT lantern_totals(fts) FROM fts WHERE fts MATCH \(QueryCompiler.phrase(held)) LIMIT 1",
                                              { $0.blob(0) }).first ?? nil, totals.count == 16
        else { return [] }
        let items = totals.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) }
        return Set(counts.filter { Double($0.value) >= SentenceRanking.commonShare * Double(items) }.keys)
    }
}
