import Foundation
import SearchIndex
import Synchronization

/// Asks an app's delegate for complete items, with a deadline.
///
/// Core Spotlight's hydration hook has no timeout, and a delegate that never calls back hangs
/// the search (the seeds' §7). Here the delegate runs in its own task; if it has not answered
/// by the deadline the caller goes on with what the index holds and the task is cancelled.
struct Hydrator: Sendable {
    let timeout: Duration

    /// What the delegate answered: the items asked for (by identifier), or nil after a timeout.
    /// Items for identifiers that were not asked for are ignored.
    func items(for identifiers: [String], from delegate: any SearchableIndexDelegate) async -> [String: SearchableItem]? {
        guard !identifiers.isEmpty else { return [:] }
        let asked = Set(identifiers)
        let result: [SearchableItem]? = await withCheckedContinuation { continuation in
            let answer = Answer(continuation)
            let work = Task { await delegate.searchableItems(forIdentifiers: identifiers) }
            let deadline = Task {
                try? await Task.sleep(for: timeout)
                if answer.resume(with: nil) { work.cancel() }
            }
            Task {
                let items = await work.value
                if answer.resume(with: items) { deadline.cancel() }
            }
        }
        guard let result else { return nil }
        var byIdentifier: [String: SearchableItem] = [:]
        for item in result where asked.contains(item.uniqueIdentifier) { byIdentifier[item.uniqueIdentifier] = item }
        return byIdentifier
    }

    /// `stored` with the delegate's values laid over it: the app's store is the source of truth.
    static func merge(_ stored: SearchableItem, with hydrated: SearchableItem) -> SearchableItem {
        var merged = stored
        for (attribute, value) in hydrated.attributeSet.values { merged.attributeSet[attribute] = value }
        return merged
    }
}

/// A continuation resumed by whichever comes first, the delegate or the deadline.
private final class Answer: Sendable {
    private let slot: Mutex<CheckedContinuation<[SearchableItem]?, Never>?>

    init(_ continuation: CheckedContinuation<[SearchableItem]?, Never>) { slot = Mutex(continuation) }

    /// Resumes with `value` if nothing did before; returns whether this call did.
    func resume(with value: [SearchableItem]?) -> Bool {
        guard let continuation = slot.withLock({ $0.take() }) else { return false }
        continuation.resume(returning: value)
        return true
    }
}
