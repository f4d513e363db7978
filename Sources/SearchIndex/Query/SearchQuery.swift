import Foundation

/// How results are ordered.
public enum SearchSortOrder: Sendable, Hashable {
    /// BM25 relevance of the full-text part (best first); falls back to insertion order.
    case relevance
    case attribute(SearchableItemAttribute, ascending: Bool)
}

/// A structured query: a predicate plus sort, paging and the attributes to return.
///
/// Mirrors the shape of `CSSearchQuery` + `CSSearchQueryContext.fetchAttributes`. Only
/// `fetchAttributes` come back in results (the "metadata gap" fix: the caller states what it
/// needs); `textContent` is never returned by a search, only by `SearchableIndex.fetchItems`.
public struct SearchQuery: Sendable, Hashable {
    public var predicate: QueryPredicate
    public var sort: [SearchSortOrder]
    public var limit: Int?
    public var offset: Int
    public var fetchAttributes: [SearchableItemAttribute]
    /// How many full-text matches relevance ranking scores (exact unless the caller bounds it;
    /// see `FullTextRanking`).
    public var ranking: FullTextRanking
    /// When set, each hit of a query with words carries its best-matching passage and a snippet
    /// of at most this many UTF-8 bytes around the words (`SearchHit.passage`): the sentence
    /// that answers, without fetching the item.
    public var snippetLength: Int?
    /// How the query's top-level words find and rank items: hybrid by default (words and
    /// meaning, when the index has an embedder), or words or meaning alone.
    public var wordsSearch: WordsSearch

    public init(_ predicate: QueryPredicate = .all, sort: [SearchSortOrder] = [.relevance], limit: Int? = 20,
                offset: Int = 0, fetchAttributes: [SearchableItemAttribute] = [.title], ranking: FullTextRanking = .exact,
                snippetLength: Int? = nil, wordsSearch: WordsSearch = .hybrid) {
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.fetchAttributes = fetchAttributes
        self.ranking = ranking
        self.snippetLength = snippetLength
        self.wordsSearch = wordsSearch
    }

    /// A query from a Core Spotlight query string (see `QueryStringParser`).
    public init(queryString: String, sort: [SearchSortOrder] = [.relevance], limit: Int? = 20, offset: Int = 0,
                fetchAttributes: [SearchableItemAttribute] = [.title], now: Date = Date(),
                timeZone: TimeZone = .current) throws(QueryStringError) {
        let predicate = try QueryStringParser(now: now, timeZone: timeZone).parse(queryString)
        self.init(predicate, sort: sort, limit: limit, offset: offset, fetchAttributes: fetchAttributes)
    }
}

/// One result: the item with only the requested attributes, and its relevance when ranked.
public struct SearchHit: Sendable, Hashable {
    public var item: SearchableItem
    /// BM25 score (higher is better) when the query had a full-text part; nil otherwise.
    public var score: Double?
    /// The item's passage that best matches the query's words, with its snippet, when the
    /// query asked for snippets (`SearchQuery.snippetLength`) and has words.
    public var passage: PassageMatch?
    /// Whether the hit was found by meaning alone: it does not hold the query's words (a search
    /// by meaning, or a hybrid hit from the meaning side only), so a caller can say so.
    public var isNearInMeaningOnly = false
    /// How near the item's nearest passage is to the query's meaning (cosine, higher is nearer)
    /// when the search ranked by meaning and the item was among its candidates: a caller can
    /// weigh a hit found by meaning alone against the ones that hold the words.
    public var nearness: Double?
}

/// A page of hits and the number of items the whole query found (Core Spotlight's
/// `foundItemCount`), so a caller can say "12 of 340" without a second query.
public struct SearchResultPage: Sendable, Hashable {
    public var hits: [SearchHit]
    public var foundItemCount: Int
}
