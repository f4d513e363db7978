import SearchIndex

/// An index to search (Apple's `CoreSpotlightSource(searchableIndexDelegate:fetchAttributes:)`).
public struct IndexSource: Sendable {
    public var index: SearchableIndex
    /// Hydration: the app's store as the source of truth for full items, asked with a timeout.
    /// nil uses the delegate set on the index, if any.
    public var delegate: (any SearchableIndexDelegate)?
    /// The attributes the model sees for each result, in this order (identifiers always).
    /// Empty means identifiers only, as in Apple's API.
    public var fetchAttributes: [SearchableItemAttribute]
    /// The most results one query returns from this source; nil is every match (Apple's
    /// default). Lantern defaults to 20 because a small model's window cannot hold more.
    public var maximumResultCount: Int?
    /// The kinds of custom attributes named in `fetchAttributes`, so the query language can offer
    /// filters on them. Needed because the schema is built synchronously from the configuration,
    /// while the index only learns a custom key's kind when values are written.
    public var customAttributeKinds: [SearchableItemAttribute: AttributeKind]

    public init(index: SearchableIndex, delegate: (any SearchableIndexDelegate)? = nil,
                fetchAttributes: [SearchableItemAttribute] = [.title], maximumResultCount: Int? = 20,
                customAttributeKinds: [SearchableItemAttribute: AttributeKind] = [:]) {
        self.index = index
        self.delegate = delegate
        self.fetchAttributes = fetchAttributes
        self.maximumResultCount = maximumResultCount
        self.customAttributeKinds = customAttributeKinds
    }
}
