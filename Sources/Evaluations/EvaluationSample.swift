/// One question of an evaluation dataset, with what a correct answer rests on (Apple's
/// `ModelSample`, specialised to retrieval): the items the search should reach, the facts the
/// answer must state, and the tool calls it should make.
///
/// One JSON line: `{"id", "prompt", "expectedIdentifiers": [str], "expectedFacts": [str]?,
/// "expectedPassages": [{...}]?, "trajectory": {...}?}`; unknown keys are ignored so datasets
/// with extra fields drop in.
public struct EvaluationSample: Sendable, Hashable, Codable, Identifiable {
    public var id: String
    public var prompt: String
    /// Items a correct answer rests on; result and answer coverage are measured against them.
    public var expectedIdentifiers: [String]
    /// Substrings the answer must contain (case-insensitive); empty means grounding is not measured.
    public var expectedFacts: [String]
    /// Where in long documents the facts are (`ExpectedPassage`); empty means passage coverage
    /// is not measured.
    public var expectedPassages: [ExpectedPassage]
    public var trajectory: TrajectoryExpectation?

    public init(id: String, prompt: String, expectedIdentifiers: [String], expectedFacts: [String] = [],
                expectedPassages: [ExpectedPassage] = [], trajectory: TrajectoryExpectation? = nil) {
        self.id = id
        self.prompt = prompt
        self.expectedIdentifiers = expectedIdentifiers
        self.expectedFacts = expectedFacts
        self.expectedPassages = expectedPassages
        self.trajectory = trajectory
    }

    private enum CodingKeys: String, CodingKey { case id, prompt, expectedIdentifiers, expectedFacts, expectedPassages, trajectory }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        prompt = try container.decode(String.self, forKey: .prompt)
        expectedIdentifiers = try container.decode([String].self, forKey: .expectedIdentifiers)
        expectedFacts = try container.decodeIfPresent([String].self, forKey: .expectedFacts) ?? []
        expectedPassages = try container.decodeIfPresent([ExpectedPassage].self, forKey: .expectedPassages) ?? []
        trajectory = try container.decodeIfPresent(TrajectoryExpectation.self, forKey: .trajectory)
    }
}
