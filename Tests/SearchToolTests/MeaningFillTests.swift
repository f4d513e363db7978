import Foundation
@testable import SearchIndex
@testable import SearchTool
import Testing

/// How a hybrid page is laid out for the model: the results that hold the words, or when none
/// does, those nearest in meaning; after a fall back to any of the terms, also the results by
/// meaning as near the question as one that holds a word.
@Suite struct MeaningFillTests {
    static func hit(_ id: String, nearInMeaningOnly: Bool, nearness: Double? = nil) -> SearchHit {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = id
        return SearchHit(item: SearchableItem(uniqueIdentifier: id, attributeSet: set), score: 1, isNearInMeaningOnly: nearInMeaningOnly,
                         nearness: nearness)
    }

    @Test func meaningOnlyResultsShowOnlyWhenNothingHoldsTheWords() {
        // fused order: a meaning-only result ranked between two word matches
        let fused = [Self.hit("near-1", nearInMeaningOnly: true), Self.hit("word-1", nearInMeaningOnly: false),
                     Self.hit("near-2", nearInMeaningOnly: true), Self.hit("near-3", nearInMeaningOnly: true),
                     Self.hit("word-2", nearInMeaningOnly: false), Self.hit("near-4", nearInMeaningOnly: true)]
        #expect(SearchPipeline.pageShown(fused, anyTerm: false).map(\.item.uniqueIdentifier) == ["word-1", "word-2"])
        // nothing holds the words (or the search is by meaning alone): the whole page by meaning
        let near = (1...6).map { Self.hit("near-\($0)", nearInMeaningOnly: true) }
        #expect(SearchPipeline.pageShown(near, anyTerm: false).count == 6)
    }

    @Test func afterAFallBackToAnyTermResultsByMeaningAsNearAsAWordMatchShow() {
        let fused = [Self.hit("word-near", nearInMeaningOnly: false, nearness: 0.52), Self.hit("near-1", nearInMeaningOnly: true, nearness: 0.55),
                     Self.hit("word-far", nearInMeaningOnly: false, nearness: 0.43), Self.hit("near-2", nearInMeaningOnly: true, nearness: 0.43),
                     Self.hit("near-3", nearInMeaningOnly: true, nearness: 0.31), Self.hit("near-4", nearInMeaningOnly: true)]
        #expect(SearchPipeline.pageShown(fused, anyTerm: true).map(\.item.uniqueIdentifier) == ["word-near", "near-1", "word-far", "near-2"])
        // all the terms held: the words decide, whatever the nearness
        #expect(SearchPipeline.pageShown(fused, anyTerm: false).map(\.item.uniqueIdentifier) == ["word-near", "word-far"])
    }

    /// The matches' titles a "which" or "how many" question gets name the results by meaning
    /// shown beside them, and say so once; a page that leaves a match out names none.
    @Test func theListOfTheMatchesNamesTheResultsByMeaningBesideThem() {
        let items = [Self.hit("Mist Trail", nearInMeaningOnly: false), Self.hit("Steep Ravine", nearInMeaningOnly: true)].map(\.item)
        let named = SearchEngine.matchCount(1, naming: items, nearInMeaningOnly: 1)
        #expect(named == "1 item matched, 1 more near in meaning: Mist Trail, Steep Ravine")
        let header = SearchEngine.header(matched: 1, shown: 2, nearInMeaningOnly: 1, count: named, namesNearInMeaning: true)
        #expect(header == "1 item matched, 1 more near in meaning: Mist Trail, Steep Ravine; 2 shown.")
        #expect(SearchEngine.matchCount(2, naming: items, nearInMeaningOnly: 1) == nil, "a match is not shown")
        #expect(SearchEngine.matchCount(2, naming: items, nearInMeaningOnly: 0) == "2 items matched: Mist Trail, Steep Ravine")
    }
}
