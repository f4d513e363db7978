import Foundation
import SearchIndex

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
