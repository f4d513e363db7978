import SearchIndex

/// Capabilities switched on one by one (Apple's `GuidanceProfile`). Every flag is tri-state as in
/// Apple's API: nil means the default noted on each.
public struct GuidanceProfile: Sendable, Hashable {
    /// Free-text terms (default on).
    public var textMatch: Bool?
    /// Filters on numeric attributes (default on).
    public var numericMatch: Bool?
    /// Date ranges with variables such as `this_month` (default on).
    public var dates: Bool?
    /// Filters on authors and recipients, with "me" resolved by the contact resolver (default off).
    public var people: Bool?
    /// A filter on the content type (default off).
    public var contentType: Bool?
    /// The attributes the model may filter and group on; nil means the sources' `fetchAttributes`.
    public var attributes: [SearchableItemAttribute]?
    /// Pipeline stages (count, groupBy, statistic, table, score, custom) (default on). Lantern's
    /// addition: Apple's profile has no switch for them, but a small window may not afford them.
    public var stages: Bool?

    public init(textMatch: Bool? = nil, numericMatch: Bool? = nil, dates: Bool? = nil, people: Bool? = nil,
                contentType: Bool? = nil, attributes: [SearchableItemAttribute]? = nil, stages: Bool? = nil) {
        self.textMatch = textMatch
        self.numericMatch = numericMatch
        self.dates = dates
        self.people = people
        self.contentType = contentType
        self.attributes = attributes
        self.stages = stages
    }
}
