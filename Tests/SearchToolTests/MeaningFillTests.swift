import Foundation
@testable import SearchIndex
@testable import SearchTool
import Testing

/// How a hybrid page is laid out for the model: results that hold the words first, and results
/// near in meaning only filling the page up to a few, unless nothing holds the words.
@Suite struct MeaningFillTests {
    static func hit(_ id: String, nearInMeaningOnly: Bool) -> SearchHit {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = id
        return SearchHit(item: SearchableItem(uniqueIdentifier: id, attributeSet: set), score: 1, isNearInMeaningOnly: nearInMeaningOnly)
    }

    @Test func wordMatchesComeFirstAndMeaningOnlyResultsOnlyFillThePage() {
        // fused order: a meaning-only result ranked between two word matches
        let fused = [Self.hit("near-1", nearInMeaningOnly: true), Self.hit("word-1", nearInMeaningOnly: false),
                     Self.hit("near-2", nearInMeaningOnly: true), Self.hit("near-3", nearInMeaningOnly: true),
                     Self.hit("word-2", nearInMeaningOnly: false), Self.hit("near-4", nearInMeaningOnly: true)]
        let laidOut = SearchPipeline.wordMatchesFirst(fused, matched: 2)
        #expect(laidOut.map(\.item.uniqueIdentifier) == ["word-1", "word-2"] + ["near-1", "near-2", "near-3"].prefix(SearchPipeline.pageFilledByMeaning - 2))
        // enough word matches: no meaning-only result at all
        let words = (1...4).map { Self.hit("word-\($0)", nearInMeaningOnly: false) }
        #expect(SearchPipeline.wordMatchesFirst(words + [Self.hit("near", nearInMeaningOnly: true)], matched: 4).map(\.item.uniqueIdentifier)
                == words.map(\.item.uniqueIdentifier))
        // nothing holds the words: the whole page by meaning
        let near = (1...6).map { Self.hit("near-\($0)", nearInMeaningOnly: true) }
        #expect(SearchPipeline.wordMatchesFirst(near, matched: 0).count == 6)
    }
}
