import Foundation
@testable import SearchIndex
@testable import SearchTool
import Testing

/// How a hybrid page is laid out for the model: the results that hold the words, or when none
/// does, those nearest in meaning.
@Suite struct MeaningFillTests {
    static func hit(_ id: String, nearInMeaningOnly: Bool) -> SearchHit {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = id
        return SearchHit(item: SearchableItem(uniqueIdentifier: id, attributeSet: set), score: 1, isNearInMeaningOnly: nearInMeaningOnly)
    }

    @Test func meaningOnlyResultsShowOnlyWhenNothingHoldsTheWords() {
        // fused order: a meaning-only result ranked between two word matches
        let fused = [Self.hit("near-1", nearInMeaningOnly: true), Self.hit("word-1", nearInMeaningOnly: false),
                     Self.hit("near-2", nearInMeaningOnly: true), Self.hit("near-3", nearInMeaningOnly: true),
                     Self.hit("word-2", nearInMeaningOnly: false), Self.hit("near-4", nearInMeaningOnly: true)]
        #expect(SearchPipeline.pageShown(fused).map(\.item.uniqueIdentifier) == ["word-1", "word-2"])
        // nothing holds the words (or the search is by meaning alone): the whole page by meaning
        let near = (1...6).map { Self.hit("near-\($0)", nearInMeaningOnly: true) }
        #expect(SearchPipeline.pageShown(near).count == 6)
    }
}
