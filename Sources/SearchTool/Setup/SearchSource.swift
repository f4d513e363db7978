import Foundation
import SearchIndex

/// Where the search tool looks (Apple's `SearchSource`: `.coreSpotlight(...)` and `.files(...)`).
///
/// `.index` replaces Apple's `.coreSpotlight`: Lantern has no system-wide index, so the source
/// names the `SearchableIndex` to search. Several sources are searched and their results merged.
public enum SearchSource: Sendable {
    /// An app's own index (Apple's `.coreSpotlight(CoreSpotlightSource)`).
    case index(IndexSource)
    /// Folders searched in place: the tool keeps them in a private index next to the default
    /// one and refreshes it (only changed files are read again) before the first search.
    case files(FilesSource)

    /// Files in these folders, with the attributes the model may read.
    public static func files(_ source: FileSource, fetchAttributes: [SearchableItemAttribute] = FilesSource.defaultFetchAttributes,
                             maximumResultCount: Int? = 20) -> SearchSource {
        .files(FilesSource(source, fetchAttributes: fetchAttributes, maximumResultCount: maximumResultCount))
    }
}

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

/// SearchIndex's `FileSource` with what the tool needs around it (Apple's `FileSource`
/// carries `fetchAttributes` and `maximumResultCount` itself; SearchIndex's walks folders and
/// knows nothing about models, so the tool adds them here).
public struct FilesSource: Sendable {
    public static let defaultFetchAttributes: [SearchableItemAttribute] = [.title, .path, .contentModificationDate]

    public var source: FileSource
    public var fetchAttributes: [SearchableItemAttribute]
    public var maximumResultCount: Int?
    /// Where the files' private index lives; nil puts it under the default index folder, named
    /// after the scopes.
    public var indexURL: URL?

    public init(_ source: FileSource, fetchAttributes: [SearchableItemAttribute] = FilesSource.defaultFetchAttributes,
                maximumResultCount: Int? = 20, indexURL: URL? = nil) {
        self.source = source
        self.fetchAttributes = fetchAttributes
        self.maximumResultCount = maximumResultCount
        self.indexURL = indexURL
    }

    /// Convenience mirroring Apple's `FileSource(fetchAttributes:)` with `scopes`.
    public init(scopes: [URL], fetchAttributes: [SearchableItemAttribute] = FilesSource.defaultFetchAttributes,
                maximumResultCount: Int? = 20) {
        self.init(FileSource(scopes: scopes), fetchAttributes: fetchAttributes, maximumResultCount: maximumResultCount)
    }
}
