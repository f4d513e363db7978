import Foundation

/// Apple's Spotlight attribute names (`kMDItemAuthors`, `kMDItemFSSize`, …) and the Lantern
/// attribute each one reads, so query strings written for Core Spotlight, `mdfind` or Samba's
/// Spotlight server run unchanged.
///
/// A `kMDItem…` name that Lantern does not store is an error that lists the names it does; other
/// names are Lantern's own (`title`, `fileSize`, …) or a custom key's `keyName` (custom keys cannot
/// start with `kMD`, so the two never collide).
enum SpotlightAttributeName {
    /// What a name in a query string refers to.
    enum Target: Equatable {
        case attribute(SearchableItemAttribute)
        /// `kMDItemContentTypeTree`: the content type and every type it conforms to.
        case contentTypeTree
    }

    /// Apple's names with a Lantern attribute. `kMDItemFS…` names are the file-system metadata the
    /// files source stores: the file's name is its `displayName`, its dates the content dates.
    static let mapped: [(apple: String, target: Target)] = [
        ("kMDItemTitle", .attribute(.title)),
        ("kMDItemDisplayName", .attribute(.displayName)),
        ("kMDItemFSName", .attribute(.displayName)),
        ("kMDItemDescription", .attribute(.contentDescription)),
        ("kMDItemTextContent", .attribute(.textContent)),
        ("kMDItemNamedLocation", .attribute(.namedLocation)),
        ("kMDItemStateOrProvince", .attribute(.stateOrProvince)),
        ("kMDItemCity", .attribute(.city)),
        ("kMDItemCountry", .attribute(.country)),
        ("kMDItemContentType", .attribute(.contentType)),
        ("kMDItemContentTypeTree", .contentTypeTree),
        ("kMDItemPath", .attribute(.path)),
        ("kMDItemCreator", .attribute(.creator)),
        ("kMDItemSubject", .attribute(.subject)),
        ("kMDItemHeadline", .attribute(.headline)),
        ("kMDItemKeywords", .attribute(.keywords)),
        ("kMDItemAuthors", .attribute(.authorNames)),
        ("kMDItemRecipients", .attribute(.recipientNames)),
        ("kMDItemEmailAddresses", .attribute(.emailAddresses)),
        ("kMDItemAlternateNames", .attribute(.alternateNames)),
        ("kMDItemLatitude", .attribute(.latitude)),
        ("kMDItemLongitude", .attribute(.longitude)),
        ("kMDItemAltitude", .attribute(.altitude)),
        ("kMDItemStarRating", .attribute(.rating)),
        ("kMDItemRating", .attribute(.rating)),
        ("kMDItemDurationSeconds", .attribute(.duration)),
        ("kMDItemFSSize", .attribute(.fileSize)),
        ("kMDItemLogicalSize", .attribute(.fileSize)),
        ("kMDItemNumberOfPages", .attribute(.pageCount)),
        ("kMDItemRankingHint", .attribute(.rankingHint)),
        ("kMDItemContentCreationDate", .attribute(.contentCreationDate)),
        ("kMDItemFSCreationDate", .attribute(.contentCreationDate)),
        ("kMDItemContentModificationDate", .attribute(.contentModificationDate)),
        ("kMDItemFSContentChangeDate", .attribute(.contentModificationDate)),
        ("kMDItemCompletionDate", .attribute(.completionDate)),
        ("kMDItemStartDate", .attribute(.startDate)),
        ("kMDItemEndDate", .attribute(.endDate)),
        ("kMDItemDueDate", .attribute(.dueDate)),
        ("kMDItemDateAdded", .attribute(.addedDate)),
        ("kMDItemLastUsedDate", .attribute(.lastUsedDate)),
    ]

    private static let table: [String: Target] = Dictionary(mapped.map { ($0.apple, $0.target) }, uniquingKeysWith: { first, _ in first })

    /// The target of one of Apple's names (`kMD…`); nil when Lantern does not store it.
    static func apple(_ name: String) -> Target? { table[name] }

    /// A Lantern name (`title`, `contentTypeTree`) or a custom key's name.
    static func lantern(_ name: String) -> Target {
        name == "contentTypeTree" ? .contentTypeTree : .attribute(SearchableItemAttribute(rawValue: name))
    }

    /// The names a query string may use, for error messages.
    static var knownNamesDescription: String {
        let apple = mapped.map(\.apple).joined(separator: ", ")
        let lantern = SearchableItemAttribute.standard.map(\.attribute.rawValue).joined(separator: ", ")
        return "one of Apple's names Lantern stores (\(apple)), a Lantern name (\(lantern)) or a custom key's name"
    }
}
