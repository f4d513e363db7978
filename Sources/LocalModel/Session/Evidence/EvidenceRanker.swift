/// Orders what the tools showed by how well it answers the question, before the answer round.
///
/// The session knows sentences and sources, not what a question means: a ranker that knows the
/// data (the search tool's, which scores by the index's words and meaning) stands behind this
/// protocol, as an embedder stands behind the index's `TextEmbedder`. Without one, the answer
/// round offers the sentences in the order the tools showed them.
public protocol EvidenceRanker: Sendable {
    /// `evidence` ordered best first, each with whether it relates to `question` at all. The
    /// result holds each element of `evidence` once.
    func rank(_ evidence: [Evidence], for question: String) async throws -> [RankedEvidence]
}

/// One sentence a tool showed the model, as a candidate for the answer.
public struct Evidence: Sendable, Hashable {
    /// The sentence, verbatim from its source.
    public var sentence: String
    /// The source it came from (`CitableSource.id`): what its citation names.
    public var sourceID: String
    /// What kind of source it came from: an item, or a tool's own result (a count).
    public var kind: CitableSource.Kind
    /// Its source is what the question asks (`CitableSource.answersQuestion`): a quoted answer
    /// begins with it, whichever sentence a small model would rather take first.
    public var answersQuestion: Bool

    public init(sentence: String, sourceID: String, kind: CitableSource.Kind = .item, answersQuestion: Bool = false) {
        self.sentence = sentence
        self.sourceID = sourceID
        self.kind = kind
        self.answersQuestion = answersQuestion
    }
}

/// A candidate with the ranker's verdict.
public struct RankedEvidence: Sendable, Hashable {
    public var evidence: Evidence
    /// Whether the sentence shares a word or its meaning with the question (a sentence that
    /// does neither is not offered; see `AnswerEvidence`).
    public var isRelated: Bool

    public init(_ evidence: Evidence, isRelated: Bool) {
        self.evidence = evidence
        self.isRelated = isRelated
    }
}
