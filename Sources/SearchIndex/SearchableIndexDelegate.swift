import Foundation

/// The app side of an index, mirroring `CSSearchableIndexDelegate` with async methods instead of
/// acknowledgement handlers (an `async` function cannot forget to call back, which is the hang
/// the seeds warn about).
public protocol SearchableIndexDelegate: AnyObject, Sendable {
    /// The index was rebuilt from nothing (`SearchableIndex.rebuild()`, or a file created anew
    /// for an older schema); donate every item again.
    func reindexAllSearchableItems(in index: SearchableIndex) async throws
    /// These items were dropped (for example their stored text failed to decode); donate them again.
    func reindexSearchableItems(withIdentifiers identifiers: [String], in index: SearchableIndex) async throws
    /// Hydration: the complete items for these identifiers, with attributes the app did not
    /// donate for search. Return only those found (an empty array is a valid answer).
    func searchableItems(forIdentifiers identifiers: [String]) async -> [SearchableItem]
}
