import Foundation

/// How a string attribute is matched (query strings: `"x"` exact, `"x*"` prefix, `"*x*"`
/// contains, other `*` placements wildcard; the `w` modifier makes any of them word-based).
public enum StringMatchKind: String, Sendable, Hashable, Codable {
    case exact, prefix, contains, word, wildcard
}

/// Core Spotlight's string modifiers: `c` case-insensitive, `d` diacritic-insensitive.
public struct StringMatchOptions: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let caseInsensitive = Self(rawValue: 1)
    public static let diacriticInsensitive = Self(rawValue: 2)
}

/// Comparison operators for numbers and dates (and `==`/`!=` for exact strings).
public enum ComparisonOperator: String, Sendable, Hashable, Codable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
}

/// A condition on items; the structured form of a Core Spotlight query string.
///
/// Built by code, by `QueryStringParser`, or by a search tool from a model's arguments. Compiled to
/// parameterized SQL: no part of a predicate is ever spliced into SQL text.
public indirect enum QueryPredicate: Sendable, Hashable {
    /// Every (unexpired) item.
    case all
    /// Full-text search over every searchable attribute (title, textContent, keywords, …), ranked
    /// with BM25. The text is split into words, each quoted, all required; `prefix` makes the last
    /// word match as a prefix. FTS syntax in the text (`OR`, `NEAR(`, quotes) is searched for, not run.
    case fullText(String, prefix: Bool = false)
    /// Search by meaning: the text is embedded when the query runs (the index must be opened
    /// with a `TextEmbedder`) and items rank by the cosine of their best passage's vector, so
    /// "water getting in" finds "damp patch under the window". Only as the whole predicate or a
    /// top-level AND part; the other parts filter the candidates. Beside words it is fused with
    /// their BM25 ranking (see `SearchableIndex.search`). Aggregations and counts ignore it: they
    /// count what the rest of the predicate selects.
    case meaning(String)
    /// `attribute op value` on numbers and dates; `==`/`!=` also on strings (exact).
    case compare(SearchableItemAttribute, ComparisonOperator, AttributeValue)
    /// `lower ≤ attribute ≤ upper` on numbers and dates (both bounds inclusive).
    case inRange(SearchableItemAttribute, lower: AttributeValue, upper: AttributeValue)
    /// A string (or any element of a string list) matched by `kind` with `options`.
    /// For `.word` and `.wildcard`, `*` in `pattern` matches any run of characters and `\` escapes;
    /// for the other kinds the pattern is literal. On `textContent` the whole text is the value
    /// (`.word` matches any word of it), found through the full-text index and checked on the
    /// stored text (see `TextContentMatch`).
    case match(SearchableItemAttribute, pattern: String, kind: StringMatchKind, options: StringMatchOptions = [])
    /// A string list (keywords, authorNames, …) contains `value` exactly.
    case contains(SearchableItemAttribute, String)
    /// The item's content type is this UTI.
    case contentType(String)
    /// The item's content type is this UTI or conforms to it (`kMDItemContentTypeTree`): for
    /// example `public.content` matches every text and document type, `public.image` every image.
    /// See `ContentTypeTree` for the types Lantern knows.
    case contentTypeConforms(to: String)
    /// The item's domain is this one or nested under it (`mail` matches `mail.inbox`).
    case domain(String)
    /// The attribute has a value.
    case exists(SearchableItemAttribute)
    case and([QueryPredicate])
    case or([QueryPredicate])
    case not(QueryPredicate)

    /// The parts of a top-level AND (the predicate itself when it is not one).
    var conjuncts: [QueryPredicate] {
        if case .and(let parts) = self { parts } else { [self] }
    }

    /// The text a search by meaning embeds: the top-level meaning parts' text, else nil.
    var meaningText: String? {
        let texts = conjuncts.compactMap { if case .meaning(let text) = $0 { text } else { nil } }
        return texts.isEmpty ? nil : texts.joined(separator: " ")
    }

    /// The top-level words (what a hybrid search also embeds), else nil.
    var topLevelWords: String? {
        let texts = conjuncts.flatMap(\.wordTexts)
        return texts.isEmpty ? nil : texts.joined(separator: " ")
    }

    /// The texts of a words part: a full-text search, or an OR of them (any of the words); none
    /// for any other predicate.
    private var wordTexts: [String] {
        switch self {
        case let .fullText(text, _): [text]
        case .or(let parts) where parts.allSatisfy({ !$0.wordTexts.isEmpty }): parts.flatMap(\.wordTexts)
        default: []
        }
    }

    /// The predicate with its top-level words searched by meaning instead (`WordsSearch.meaning`).
    var searchingTopLevelWordsByMeaning: QueryPredicate {
        guard let words = topLevelWords else { return self }
        let rest = removingTopLevel(meaning: false, words: true).conjuncts
        return rest.isEmpty ? .meaning(words) : .and(rest + [.meaning(words)])
    }

    /// The predicate without its top-level meaning parts (what filters the vector candidates
    /// when `words` is false, also without its top-level words).
    func removingTopLevel(meaning: Bool, words: Bool) -> QueryPredicate {
        let kept = conjuncts.filter { part in
            switch part {
            case .meaning: !meaning
            default: !(words && !part.wordTexts.isEmpty)
            }
        }
        return kept.count == 1 ? kept[0] : .and(kept)
    }

    /// Whether a full-text term appears (outside a NOT), so results can be ranked by relevance.
    var fullTextTerms: [(String, Bool)] {
        switch self {
        case let .fullText(text, prefix): [(text, prefix)]
        case .and(let parts), .or(let parts): parts.flatMap(\.fullTextTerms)
        default: []
        }
    }
}
