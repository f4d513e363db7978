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
