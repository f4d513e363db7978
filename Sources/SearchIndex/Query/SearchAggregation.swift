import Foundation

/// A numeric statistic over an attribute.
public enum Statistic: String, Sendable, Hashable, Codable, CaseIterable {
    case sum, average, minimum, maximum
}

/// A calendar unit to group dates by.
public enum DateGroupingUnit: String, Sendable, Hashable, Codable, CaseIterable {
    case day, week, month, year
}

/// Work computed inside SQLite over the items matching a predicate — never by loading every row.
/// The search tool's pipeline stages (count, group, statistic) stand on these.
public enum SearchAggregation: Sendable, Hashable {
    /// How many items match.
    case count
    /// Items per distinct value of an attribute (each element of a string list counts), most
    /// frequent first, optionally with a statistic of a numeric attribute per group.
    case groupBy(SearchableItemAttribute, statistic: GroupStatistic? = nil, limit: Int = 100)
    /// Items per day/week/month/year of a date attribute, in date order, optionally with a statistic.
    case groupByDate(SearchableItemAttribute, unit: DateGroupingUnit, statistic: GroupStatistic? = nil)
    /// One statistic of a numeric (or date) attribute over all matches.
    case statistic(Statistic, SearchableItemAttribute)
}

/// A statistic computed per group (for example the average `rating` per month).
public struct GroupStatistic: Sendable, Hashable {
    public var statistic: Statistic
    public var attribute: SearchableItemAttribute
    public init(_ statistic: Statistic, of attribute: SearchableItemAttribute) {
        self.statistic = statistic
        self.attribute = attribute
    }
}

/// One group of a grouping aggregation.
public struct AggregationGroup: Sendable, Hashable {
    /// The group's value (for date groups, the first instant of the bucket).
    public var key: AttributeValue
    /// A readable key: the value, or 2024-05 / 2024-W20 / 2024-05-17 / 2024 for date buckets.
    public var label: String
    public var count: Int
    /// The requested statistic for this group, when one was asked for and some item had a value.
    public var value: Double?
}

/// What an aggregation computed.
public enum AggregationResult: Sendable, Hashable {
    case count(Int)
    /// `isComplete` is false when more groups existed than the limit.
    case groups([AggregationGroup], isComplete: Bool)
    /// nil when no matching item had a value; `count` is how many did.
    case statistic(Double?, count: Int)
}

/// An attribute present in an index and how many items have it (the catalogue a search tool
/// shows a model so it only queries attributes that exist).
public struct AttributeSummary: Sendable, Hashable {
    public var attribute: SearchableItemAttribute
    public var kind: AttributeKind
    public var itemCount: Int
    /// True for custom keys.
    public var isCustom: Bool
}

/// The distinct values of an attribute with their item counts.
public struct DistinctValues: Sendable, Hashable {
    public var values: [(value: AttributeValue, count: Int)]
    /// False when the attribute had more distinct values than the limit (only the most frequent are listed).
    public var isComplete: Bool

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.isComplete == rhs.isComplete && lhs.values.map(\.value) == rhs.values.map(\.value)
            && lhs.values.map(\.count) == rhs.values.map(\.count)
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isComplete)
        for entry in values { hasher.combine(entry.value); hasher.combine(entry.count) }
    }
}
