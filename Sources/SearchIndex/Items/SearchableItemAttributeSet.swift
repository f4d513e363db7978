import Foundation

/// The metadata of one item, mirroring `CSSearchableItemAttributeSet`.
///
/// A value type (Apple's is a class) so that items are `Sendable` and can cross actors freely.
/// Typed properties read and write one dictionary, so the index can also store, fetch and return
/// attributes generically (`subscript(attribute)`), including custom keys
/// (`setValue(_:forCustomKey:)`).
public struct SearchableItemAttributeSet: Sendable, Hashable {
    /// Every attribute that has a value, standard and custom.
    public private(set) var values: [SearchableItemAttribute: AttributeValue] = [:]
    /// The keys of custom attributes set through `setValue(_:forCustomKey:)`, so the index knows
    /// their flags (searchable by default, multi-valued).
    public private(set) var customKeys: [SearchableItemAttribute: CustomAttributeKey] = [:]

    /// An empty set; `contentType` is a UTI such as `public.text`.
    public init(contentType: String? = nil) {
        self.contentType = contentType
    }

    /// The value of any attribute, standard or custom; setting nil removes it.
    public subscript(attribute: SearchableItemAttribute) -> AttributeValue? {
        get { values[attribute] }
        set { values[attribute] = newValue }
    }

    /// Stores a custom attribute's value; mirrors `setValue(_:forCustomKey:)`.
    public mutating func setValue(_ value: AttributeValue?, forCustomKey key: CustomAttributeKey) {
        values[key.attribute] = value
        customKeys[key.attribute] = value == nil ? nil : key
    }

    /// A custom attribute's value; mirrors `value(forCustomKey:)`.
    public func value(forCustomKey key: CustomAttributeKey) -> AttributeValue? { values[key.attribute] }

    /// This set limited to `attributes` (what a search returns for `fetchAttributes`).
    public func restricted(to attributes: Set<SearchableItemAttribute>) -> SearchableItemAttributeSet {
        var copy = SearchableItemAttributeSet()
        copy.values = values.filter { attributes.contains($0.key) }
        copy.customKeys = customKeys.filter { attributes.contains($0.key) }
        return copy
    }

    public var title: String? {
        get { values[.title]?.stringValue }
        set { values[.title] = newValue.map(AttributeValue.string) }
    }
    public var displayName: String? {
        get { values[.displayName]?.stringValue }
        set { values[.displayName] = newValue.map(AttributeValue.string) }
    }
    public var contentDescription: String? {
        get { values[.contentDescription]?.stringValue }
        set { values[.contentDescription] = newValue.map(AttributeValue.string) }
    }
    public var textContent: String? {
        get { values[.textContent]?.stringValue }
        set { values[.textContent] = newValue.map(AttributeValue.string) }
    }
    public var namedLocation: String? {
        get { values[.namedLocation]?.stringValue }
        set { values[.namedLocation] = newValue.map(AttributeValue.string) }
    }
    public var stateOrProvince: String? {
        get { values[.stateOrProvince]?.stringValue }
        set { values[.stateOrProvince] = newValue.map(AttributeValue.string) }
    }
    public var city: String? {
        get { values[.city]?.stringValue }
        set { values[.city] = newValue.map(AttributeValue.string) }
    }
    public var country: String? {
        get { values[.country]?.stringValue }
        set { values[.country] = newValue.map(AttributeValue.string) }
    }
    public var contentType: String? {
        get { values[.contentType]?.stringValue }
        set { values[.contentType] = newValue.map(AttributeValue.string) }
    }
    public var path: String? {
        get { values[.path]?.stringValue }
        set { values[.path] = newValue.map(AttributeValue.string) }
    }
    public var creator: String? {
        get { values[.creator]?.stringValue }
        set { values[.creator] = newValue.map(AttributeValue.string) }
    }
    public var subject: String? {
        get { values[.subject]?.stringValue }
        set { values[.subject] = newValue.map(AttributeValue.string) }
    }
    public var headline: String? {
        get { values[.headline]?.stringValue }
        set { values[.headline] = newValue.map(AttributeValue.string) }
    }
    public var keywords: [String]? {
        get { values[.keywords]?.stringsValue }
        set { values[.keywords] = newValue.map(AttributeValue.strings) }
    }
    public var authorNames: [String]? {
        get { values[.authorNames]?.stringsValue }
        set { values[.authorNames] = newValue.map(AttributeValue.strings) }
    }
    public var recipientNames: [String]? {
        get { values[.recipientNames]?.stringsValue }
        set { values[.recipientNames] = newValue.map(AttributeValue.strings) }
    }
    public var emailAddresses: [String]? {
        get { values[.emailAddresses]?.stringsValue }
        set { values[.emailAddresses] = newValue.map(AttributeValue.strings) }
    }
    public var alternateNames: [String]? {
        get { values[.alternateNames]?.stringsValue }
        set { values[.alternateNames] = newValue.map(AttributeValue.strings) }
    }
    public var latitude: Double? {
        get { values[.latitude]?.numberValue }
        set { values[.latitude] = newValue.map(AttributeValue.number) }
    }
    public var longitude: Double? {
        get { values[.longitude]?.numberValue }
        set { values[.longitude] = newValue.map(AttributeValue.number) }
    }
    public var altitude: Double? {
        get { values[.altitude]?.numberValue }
        set { values[.altitude] = newValue.map(AttributeValue.number) }
    }
    public var rating: Double? {
        get { values[.rating]?.numberValue }
        set { values[.rating] = newValue.map(AttributeValue.number) }
    }
    public var duration: Double? {
        get { values[.duration]?.numberValue }
        set { values[.duration] = newValue.map(AttributeValue.number) }
    }
    public var fileSize: Double? {
        get { values[.fileSize]?.numberValue }
        set { values[.fileSize] = newValue.map(AttributeValue.number) }
    }
    public var pageCount: Double? {
        get { values[.pageCount]?.numberValue }
        set { values[.pageCount] = newValue.map(AttributeValue.number) }
    }
    public var rankingHint: Double? {
        get { values[.rankingHint]?.numberValue }
        set { values[.rankingHint] = newValue.map(AttributeValue.number) }
    }
    public var contentCreationDate: Date? {
        get { values[.contentCreationDate]?.dateValue }
        set { values[.contentCreationDate] = newValue.map(AttributeValue.date) }
    }
    public var contentModificationDate: Date? {
        get { values[.contentModificationDate]?.dateValue }
        set { values[.contentModificationDate] = newValue.map(AttributeValue.date) }
    }
    public var completionDate: Date? {
        get { values[.completionDate]?.dateValue }
        set { values[.completionDate] = newValue.map(AttributeValue.date) }
    }
    public var startDate: Date? {
        get { values[.startDate]?.dateValue }
        set { values[.startDate] = newValue.map(AttributeValue.date) }
    }
    public var endDate: Date? {
        get { values[.endDate]?.dateValue }
        set { values[.endDate] = newValue.map(AttributeValue.date) }
    }
    public var dueDate: Date? {
        get { values[.dueDate]?.dateValue }
        set { values[.dueDate] = newValue.map(AttributeValue.date) }
    }
    public var addedDate: Date? {
        get { values[.addedDate]?.dateValue }
        set { values[.addedDate] = newValue.map(AttributeValue.date) }
    }
    public var lastUsedDate: Date? {
        get { values[.lastUsedDate]?.dateValue }
        set { values[.lastUsedDate] = newValue.map(AttributeValue.date) }
    }
}
