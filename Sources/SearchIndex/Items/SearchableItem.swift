import Foundation

/// One indexed thing, mirroring `CSSearchableItem(uniqueIdentifier:domainIdentifier:attributeSet:)`.
public struct SearchableItem: Sendable, Hashable, Identifiable {
    /// Unique within an index; upserting the same identifier replaces the item.
    public var uniqueIdentifier: String
    /// Groups items for deletion (`deleteSearchableItems(withDomainIdentifiers:)`); dotted domains
    /// nest, so deleting `mail` also deletes `mail.inbox`, as in Core Spotlight.
    public var domainIdentifier: String?
    public var attributeSet: SearchableItemAttributeSet
    /// After this date the item no longer appears in results and is purged from the index.
    public var expirationDate: Date?

    public var id: String { uniqueIdentifier }

    public init(uniqueIdentifier: String, domainIdentifier: String? = nil,
                attributeSet: SearchableItemAttributeSet, expirationDate: Date? = nil) {
        self.uniqueIdentifier = uniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.attributeSet = attributeSet
        self.expirationDate = expirationDate
    }
}
