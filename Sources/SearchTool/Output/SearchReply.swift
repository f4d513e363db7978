import Foundation
import SearchIndex

/// One batch of results on `SearchTool.searchResults` (Apple's `SearchReply`).
public struct SearchReply: Sendable, Hashable {
    /// Whether more replies of the same query follow.
    public enum Status: Sendable, Hashable {
        case partial, complete
    }

    /// Identifies one tool call: replies with the same token belong to one query.
    public struct QueryToken: Sendable, Hashable, CustomStringConvertible {
        public let value: Int
        public var description: String { "query-\(value)" }
    }

    /// Identifies one stage of a query's pipeline (0 is the search itself).
    public struct StageToken: Sendable, Hashable, CustomStringConvertible {
        public let query: QueryToken
        public let index: Int
        public var description: String { "\(query)-stage-\(index)" }
    }

    public var content: SearchPipelineData
    /// The model's own title for the query, when it wrote one.
    public var label: String?
    /// `.partial` until the last reply of a query.
    public var status: Status
    public var queryToken: QueryToken
    public var stageToken: StageToken
    /// The best passage of each item in `content` that has one (a query with words), by item
    /// identifier: the snippet the model saw and where in the item it lies.
    public var passages: [String: PassageMatch]
    /// What the tool added to the model's query from the question, or gave up from it when it
    /// found nothing (`QueryAdjustment`); the same in every reply of one query, empty when the
    /// query ran as written.
    public var adjustments: [QueryAdjustment]
    /// How many of the searched items had vectors when the query ran (nil when no index searched
    /// has an embedder): until the embedding pass ends, meaning ranks only those, and the
    /// others are found by their words alone.
    public var vectorCoverage: VectorCoverage?

    public init(content: SearchPipelineData, label: String?, status: Status, queryToken: QueryToken, stageToken: StageToken,
                passages: [String: PassageMatch] = [:], adjustments: [QueryAdjustment] = [], vectorCoverage: VectorCoverage? = nil) {
        self.content = content
        self.vectorCoverage = vectorCoverage
        self.passages = passages
        self.adjustments = adjustments
        self.label = label
        self.status = status
        self.queryToken = queryToken
        self.stageToken = stageToken
    }
}
