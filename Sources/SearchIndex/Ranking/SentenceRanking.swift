import Foundation

/// A few sentences ranked against a question, as the index ranks items against a query: by the
/// question's words (BM25 over the sentences, with the index's tokenizer, so `trails` matches
/// `trail` as a search would) and by meaning (the question's vector against each sentence's,
/// from the index's embedder), the two fused by `RankFusion` as hybrid search fuses them.
///
/// What an answer round quotes is ranked with this (`SearchableIndex.rankSentences`): the
/// search found the items by the model's query, and this orders what they say by the user's
/// question. A question word the sentence negates ("there is *no water* on this trail" for
/// "which trails have water?") does not count as matched: such a sentence says the opposite of
/// what was asked, and only its meaning can still rank it.
public struct SentenceRanking: Sendable, Hashable {
    /// One sentence's place and why.
    public struct Entry: Sendable, Hashable {
        /// The sentence's position in the ranked input.
        public let index: Int
        /// How many distinct question words (stems) the sentence holds.
        public let matchedWords: Int
        /// The cosine between the question's vector and the sentence's; nil without an embedder.
        public let similarity: Float?

        /// Whether the sentence relates to the question at all: it holds one of its words, or
        /// is at least `relatedSimilarity` near in meaning.
        public var isRelated: Bool {
            matchedWords > 0 || (similarity ?? -1) >= SentenceRanking.relatedSimilarity
        }
    }

    /// The cosine from which a sentence counts as related by meaning alone. With
    /// all-MiniLM-L6-v2, a question and a sentence about another subject score about 0 to 0.25,
    /// a paraphrase of the question's subject 0.4 and more.
    public static let relatedSimilarity: Float = 0.35

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
    init(sentenceStems: [[String]], questionStems: [String], negationStems: Set<String>, similarities: [Float]?) {
        let question = Set(questionStems)
        /// The question's stems the sentence holds, each where no negation precedes it.
        func matches(_ stems: [String]) -> [String] {
            stems.indices.filter { position in
                question.contains(stems[position])
                    && !stems[max(0, position - Self.negationReach)..<position].contains(where: negationStems.contains)
            }.map { stems[$0] }
        }
        let matchedStems = sentenceStems.map(matches)
        let lengths = sentenceStems.map { Double($0.count) }
        let averageLength = max(1, lengths.reduce(0, +) / Double(max(1, lengths.count)))
        var holders: [String: Int] = [:]
        for stems in matchedStems { for stem in Set(stems) { holders[stem, default: 0] += 1 } }
        let count = Double(sentenceStems.count)
        var wordScores: [(index: Int, score: Double)] = []
        var matched: [Int] = []
        for (index, stems) in matchedStems.enumerated() {
            var frequencies: [String: Double] = [:]
            for stem in stems { frequencies[stem, default: 0] += 1 }
            matched.append(frequencies.count)
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
        entries = (fused + unranked).map { Entry(index: $0, matchedWords: matched[$0], similarity: similarities?[$0]) }
    }
}

extension SearchableIndex {
    /// `sentences` ranked against `question`: by `words` (the question's words worth matching,
    /// as the caller reads them; stop words left out) under the index's tokenizer, and, when the
    /// index has an embedder, by the meaning of `question`. Words alone without an embedder.
    public func rankSentences(_ sentences: [String], words: [String], question: String) async throws(SearchIndexError) -> SentenceRanking {
        let texts = [words.joined(separator: " "), SentenceRanking.negations.joined(separator: " ")] + sentences
        let stems = try await read { (database) throws(SearchIndexError) in texts.map { database.tokens(of: $0).map(\.stem) } }
        var similarities: [Float]?
        if let embedder, !sentences.isEmpty {
            let vectors = try await Self.embed([question] + sentences, with: embedder).map(QuantizedVector.normalized)
            similarities = vectors.dropFirst().map { vector in zip(vectors[0], vector).reduce(0) { $0 + $1.0 * $1.1 } }
        }
        return SentenceRanking(sentenceStems: Array(stems.dropFirst(2)), questionStems: stems[0], negationStems: Set(stems[1]),
                               similarities: similarities)
    }
}
