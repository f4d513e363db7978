import Foundation

/// A key for an app-defined attribute, mirroring `CSCustomAttributeKey`.
///
/// Failable like Apple's: the name must be non-empty ASCII letters, digits and `_` (Apple also
/// forbids other punctuation), must not start with `kMD` (reserved for system attributes) and must
/// not collide with a standard attribute's name, which Lantern stores as a typed column.
public struct CustomAttributeKey: Hashable, Sendable, Codable {
    public let keyName: String
    /// Whether values can be matched by queries on this key.
    public let isSearchable: Bool
    /// Whether values join the full-text index, so free-text searches find them.
    public let isSearchableByDefault: Bool
    /// Whether values are unique identifiers (kept for API parity; Lantern stores them the same way).
    public let isUnique: Bool
    /// Whether an item may hold several values (a `.strings` value).
    public let isMultiValued: Bool

    public init?(keyName: String, searchable: Bool = true, searchableByDefault: Bool = false,
                 unique: Bool = false, multiValued: Bool = false) {
        guard Self.isValidName(keyName) else { return nil }
        self.keyName = keyName
        self.isSearchable = searchable
        self.isSearchableByDefault = searchableByDefault
        self.isUnique = unique
        self.isMultiValued = multiValued
    }

    /// Apple's naming rule: ASCII letters, digits and underscore; no `kMD` prefix.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 128, !name.hasPrefix("kMD") else { return false }
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic
            || ("0"..."9").contains($0)) }) else { return false }
        return SearchableItemAttribute(rawValue: name).standardKind == nil
    }

    public var attribute: SearchableItemAttribute { SearchableItemAttribute(rawValue: keyName) }
}
