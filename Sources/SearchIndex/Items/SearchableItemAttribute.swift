import Foundation

/// The name of an attribute: a standard one (`.title`, `.rating`, …) or a custom key's name.
///
/// Mirrors Apple's `SearchableItemAttribute` (RawRepresentable, `init(rawValue:)` admits a custom
/// key's name). Lantern lists only the attributes its index stores as typed columns; `kind` tells
/// which values a standard attribute takes (nil for custom names, whose kind the index records
/// when values are first written).
public struct SearchableItemAttribute: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // Strings
    public static let title = Self(rawValue: "title")
    public static let displayName = Self(rawValue: "displayName")
    public static let contentDescription = Self(rawValue: "contentDescription")
    public static let textContent = Self(rawValue: "textContent")
    public static let namedLocation = Self(rawValue: "namedLocation")
    public static let stateOrProvince = Self(rawValue: "stateOrProvince")
    public static let city = Self(rawValue: "city")
    public static let country = Self(rawValue: "country")
    public static let contentType = Self(rawValue: "contentType")
    public static let path = Self(rawValue: "path")
    public static let creator = Self(rawValue: "creator")
    public static let subject = Self(rawValue: "subject")
    public static let headline = Self(rawValue: "headline")
    // String lists
    public static let keywords = Self(rawValue: "keywords")
    public static let authorNames = Self(rawValue: "authorNames")
    public static let recipientNames = Self(rawValue: "recipientNames")
    public static let emailAddresses = Self(rawValue: "emailAddresses")
    public static let alternateNames = Self(rawValue: "alternateNames")
    // Numbers
    public static let latitude = Self(rawValue: "latitude")
    public static let longitude = Self(rawValue: "longitude")
    public static let altitude = Self(rawValue: "altitude")
    public static let rating = Self(rawValue: "rating")
    /// Seconds.
    public static let duration = Self(rawValue: "duration")
    /// Bytes.
    public static let fileSize = Self(rawValue: "fileSize")
    public static let pageCount = Self(rawValue: "pageCount")
    public static let rankingHint = Self(rawValue: "rankingHint")
    // Dates
    public static let contentCreationDate = Self(rawValue: "contentCreationDate")
    public static let contentModificationDate = Self(rawValue: "contentModificationDate")
    public static let completionDate = Self(rawValue: "completionDate")
    public static let startDate = Self(rawValue: "startDate")
    public static let endDate = Self(rawValue: "endDate")
    public static let dueDate = Self(rawValue: "dueDate")
    public static let addedDate = Self(rawValue: "addedDate")
    public static let lastUsedDate = Self(rawValue: "lastUsedDate")

    /// Every standard attribute with its kind, in schema order.
    public static let standard: [(attribute: SearchableItemAttribute, kind: AttributeKind)] =
        [title, displayName, contentDescription, textContent, namedLocation, stateOrProvince, city,
         country, contentType, path, creator, subject, headline].map { ($0, .string) }
        + [keywords, authorNames, recipientNames, emailAddresses, alternateNames].map { ($0, .strings) }
        + [latitude, longitude, altitude, rating, duration, fileSize, pageCount, rankingHint].map { ($0, .number) }
        + [contentCreationDate, contentModificationDate, completionDate, startDate, endDate, dueDate,
           addedDate, lastUsedDate].map { ($0, .date) }

    private static let kinds: [SearchableItemAttribute: AttributeKind] =
        Dictionary(uniqueKeysWithValues: standard.map { ($0.attribute, $0.kind) })

    /// The kind of a standard attribute; nil for a custom key's name.
    public var standardKind: AttributeKind? { Self.kinds[self] }

    /// Standard attributes whose words go into the full-text index (beside textContent).
    static let fullTextSearchable: Set<SearchableItemAttribute> = [
        .title, .displayName, .contentDescription, .textContent, .namedLocation, .stateOrProvince,
        .city, .country, .creator, .subject, .headline, .keywords, .authorNames, .recipientNames,
        .alternateNames,
    ]
}
