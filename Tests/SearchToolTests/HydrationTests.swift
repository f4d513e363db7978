import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Synchronization
import Testing

/// An app store that answers hydration with extra attributes, for a subset of ids, slowly, or never.
final class TrailStore: SearchableIndexDelegate {
    enum Behaviour: Sendable { case answer, never, unknownIDs, forget(String) }
    let behaviour: Behaviour
    let asked = Mutex<[[String]]>([])
    init(_ behaviour: Behaviour) { self.behaviour = behaviour }

    func reindexAllSearchableItems(in index: SearchableIndex) async throws {}
    func reindexSearchableItems(withIdentifiers identifiers: [String], in index: SearchableIndex) async throws {}

    func searchableItems(forIdentifiers identifiers: [String]) async -> [SearchableItem] {
        asked.withLock { $0.append(identifiers) }
        switch behaviour {
        case .never:
            await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            return []
        case .unknownIDs:
            return ["nope-1", "nope-2"].map { SearchableItem(uniqueIdentifier: $0, attributeSet: SearchableItemAttributeSet()) }
        case .answer, .forget:
            return TrailCorpus.trails.filter { identifiers.contains($0.id) }.compactMap { trail in
                if case .forget(let id) = behaviour, id == trail.id { return nil }
                var set = SearchableItemAttributeSet()
                set.contentDescription = "Model-only note for \(trail.name)"
                return SearchableItem(uniqueIdentifier: trail.id, attributeSet: set)
            }
        }
    }
}

@Suite struct HydrationTests {
    func tool(_ store: TrailStore, timeout: Duration = .seconds(2)) async throws -> SearchTool {
        let (index, _) = try await TrailCorpus.index()
        return SearchTool(configuration: .init(sources: [TrailCorpus.source(index, delegate: store, fetch: [.title, .contentDescription])],
                                               hydrationTimeout: timeout))
    }

    @Test func searchAndFetchHydrateThroughTheDelegate() async throws {
        let store = TrailStore(.answer)
        let tool = try await tool(store)
        let output = try await tool.call(arguments: try #require(JSONValue.query(["terms": ["summit"]])))
        #expect(output.contains("Model-only note for Half Dome"))
        let fetched = try await tool.fetchTool.call(arguments: FetchItemTool.Arguments(["id": "trail-004"]))
        #expect(fetched.contains("Model-only note for Half Dome"))
        #expect(fetched.contains("spare batteries"))
        #expect(fetched.contains("stateOrProvince: California"))
    }

    @Test func aDelegateThatNeverAnswersTimesOut() async throws {
        let tool = try await tool(TrailStore(.never), timeout: .milliseconds(200))
        let output = try await tool.call(arguments: try #require(JSONValue.query(["terms": ["summit"]])))
        #expect(output.contains("did not answer"))
        #expect(output.contains("Half Dome"))
        let fetched = try await tool.fetchTool.call(arguments: FetchItemTool.Arguments(["id": "trail-004"]))
        #expect(fetched.contains("spare batteries") && fetched.contains("did not answer"))
    }

    @Test func unknownIdentifiersAreIgnoredAndForgottenItemsDropped() async throws {
        let unknown = try await tool(TrailStore(.unknownIDs))
        let output = try await unknown.call(arguments: try #require(JSONValue.query(["terms": ["summit"]])))
        #expect(!output.contains("nope-1"))
        #expect(output.contains("were dropped"))
        let missing = try await unknown.fetchTool.call(arguments: FetchItemTool.Arguments(["id": "nope-1"]))
        #expect(missing.hasPrefix("No item has the id"))

        let forgetting = try await tool(TrailStore(.forget("trail-004")))
        let result = try await forgetting.call(arguments: try #require(JSONValue.query(["terms": ["summit"]])))
        #expect(result.contains("1 items were dropped"))
        #expect(!result.contains("trail-004"))
        #expect(result.contains("trail-005"))
    }
}
