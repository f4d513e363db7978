import LocalModel

/// The tool calls a sample's answer should make (Apple's `TrajectoryExpectation`): the expected
/// calls in any order or in order, and tools that must not be called.
///
/// Decoded from a sample's `trajectory` object: `{"unordered" | "ordered": [{"tool", "arguments"?}],
/// "disallowed": [tool]?}`. Additional calls are allowed in both orders: a model that searches
/// twice before fetching still followed an ordered `search, fetch` trajectory. Apple's
/// `allowsAdditionalToolCalls: false` is available in code for exact trajectories.
public struct TrajectoryExpectation: Sendable, Hashable {
    public enum Order: String, Sendable, Hashable, Codable {
        case unordered, ordered
    }

    public var order: Order
    public var expected: [ToolExpectation]
    /// Tool names no call may use.
    public var disallowed: [String]
    /// Whether calls beyond the expected ones are accepted.
    public var allowsAdditionalToolCalls: Bool

    /// Every expected call, in any order, and none of the disallowed tools.
    public init(unordered: [ToolExpectation], disallowed: [String] = []) {
        self.init(order: .unordered, expected: unordered, disallowed: disallowed, allowsAdditionalToolCalls: true)
    }

    /// The expected calls in this order, possibly with others between them.
    public init(ordered: [ToolExpectation], allowsAdditionalToolCalls: Bool = true, disallowed: [String] = []) {
        self.init(order: .ordered, expected: ordered, disallowed: disallowed, allowsAdditionalToolCalls: allowsAdditionalToolCalls)
    }

    init(order: Order, expected: [ToolExpectation], disallowed: [String], allowsAdditionalToolCalls: Bool) {
        self.order = order
        self.expected = expected
        self.disallowed = disallowed
        self.allowsAdditionalToolCalls = allowsAdditionalToolCalls
    }

    /// Checks the calls a response made, in the order it made them. Returns nil when they
    /// pass, or why they do not.
    public func failure(for calls: [Transcript.ToolCall]) -> String? {
        if let bad = calls.first(where: { disallowed.contains($0.toolName) }) {
            return "called the disallowed tool \(bad.toolName)"
        }
        if !allowsAdditionalToolCalls && calls.count != expected.count {
            return "made \(calls.count) calls, expected exactly \(expected.count)"
        }
        switch order {
        case .ordered:
            var next = 0
            for call in calls where next < expected.count && expected[next].matches(call) { next += 1 }
            if next < expected.count {
                return "no \(describe(expected[next])) after the earlier expected calls"
            }
        case .unordered:
            if let missing = Self.unmatched(expected, in: calls) {
                return "no \(describe(missing)) among the calls"
            }
        }
        return nil
    }

    /// The first expectation no distinct call can satisfy, by bipartite matching (a call
    /// satisfies at most one expectation, and greedy choice fails when key sets overlap).
    private static func unmatched(_ expected: [ToolExpectation], in calls: [Transcript.ToolCall]) -> ToolExpectation? {
        var owner = [Int?](repeating: nil, count: calls.count)
        func assign(_ expectation: Int, _ visited: inout Set<Int>) -> Bool {
            for (index, call) in calls.enumerated() where expected[expectation].matches(call) && visited.insert(index).inserted {
                if let other = owner[index] {
                    guard assign(other, &visited) else { continue }
                }
                owner[index] = expectation
                return true
            }
            return false
        }
        for expectation in expected.indices {
            var visited = Set<Int>()
            if !assign(expectation, &visited) { return expected[expectation] }
        }
        return nil
    }

    private func describe(_ expectation: ToolExpectation) -> String {
        expectation.arguments.isEmpty ? "call to \(expectation.tool)"
            : "call to \(expectation.tool) with \(expectation.arguments.joined(separator: ", "))"
    }
}

extension TrajectoryExpectation: Codable {
    private enum CodingKeys: String, CodingKey { case unordered, ordered, disallowed }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let disallowed = try container.decodeIfPresent([String].self, forKey: .disallowed) ?? []
        let unordered = try container.decodeIfPresent([ToolExpectation].self, forKey: .unordered)
        let ordered = try container.decodeIfPresent([ToolExpectation].self, forKey: .ordered)
        switch (unordered, ordered) {
        case (let unordered?, nil):
            self.init(unordered: unordered, disallowed: disallowed)
        case (nil, let ordered?):
            self.init(ordered: ordered, disallowed: disallowed)
        case (nil, nil) where !disallowed.isEmpty:
            self.init(unordered: [], disallowed: disallowed)
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "a trajectory needs exactly one of \"unordered\" or \"ordered\" (a list of {\"tool\", \"arguments\"})"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(expected, forKey: order == .ordered ? .ordered : .unordered)
        if !disallowed.isEmpty { try container.encode(disallowed, forKey: .disallowed) }
    }
}
