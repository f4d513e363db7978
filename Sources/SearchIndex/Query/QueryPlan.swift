import Foundation

/// How a query reaches its items, decided once from its predicate: which table drives it and
/// what filters the rest. The executor chooses its SQL by the plan's case (FTS5 alone for a
/// words-only query, a word's shortlist, the counts writes keep), never by reading SQL back.
enum QueryPlan {
    /// Every item, with nothing to filter (nor expired items to hide).
    case everything
    /// One full-text match and nothing else: FTS5 alone answers it, without reading `items`.
    case fullTextOnly(FullTextMatch)
    /// A full-text match drives the query from `fts` (ranked by BM25); `filter`, over `items i`,
    /// holds the rest of the predicate.
    case fullText(FullTextMatch, filter: SQL)
    /// A standard string list's membership (`list_values m` rows) drives the query: the rows
    /// arrive in rowid order, so the first few members of a large list come back without SQLite
    /// first collecting all of them (as `rowid IN (SELECT …)` makes it do).
    case listMembership(SQL, filter: SQL)
    /// A condition over `items i`, which drives the query.
    case filter(SQL)

    /// A full-text match as FTS5 reads it.
    struct FullTextMatch {
        /// The MATCH expression, every word quoted (`""`, which matches nothing, for text
        /// without words).
        var expression: String
        /// The word, when the whole predicate is one plain word: its top results can come from
        /// the word's shortlist (see `TermShortlist`).
        var shortlistWord: String?
    }

    /// The plan for `predicate`, hiding items expired at `hideExpiredAt` when set. The top-level
    /// full-text terms, each a word search or an OR of them, drive the query from the FTS table
    /// as one MATCH (the fast path for ranked search, BM25 over all of their words); otherwise a
    /// top-level membership in a string list (`keywords` contains "x") drives it from that list's
    /// rows. Without `drivers` (a grouping that joins `items i`
    /// to its own table), the plan is `.everything` or `.filter`.
    init(_ predicate: QueryPredicate, compiler: QueryCompiler, hidingExpiredAt hideExpiredAt: Date?,
         drivers: Bool = true) throws(SearchIndexError) {
        // A search by meaning ranks outside SQL (`VectorMatrix`); its parts select nothing here.
        let withoutMeaning = predicate.meaningText == nil ? predicate : predicate.removingTopLevel(meaning: true, words: false)
        let predicate = withoutMeaning
        var parts = predicate.conjuncts
        var fullText: [[(text: String, prefix: Bool)]]?
        var membership: (attribute: SearchableItemAttribute, value: String)?
        if drivers {
            let words = parts.compactMap(\.wordAlternatives)
            if !words.isEmpty {
                fullText = words
                parts.removeAll { $0.wordAlternatives != nil }
            } else if let index = parts.firstIndex(where: { if case .contains(let attribute, _) = $0 { attribute.standardKind == .strings } else { false } }),
                      case let .contains(attribute, value) = parts[index] {
                membership = (attribute, value)
                parts.remove(at: index)
            }
        }
        let rest: QueryPredicate = fullText == nil && membership == nil ? predicate : .and(parts)
        let condition = try compiler.compile(rest)
        let filter = QueryCompiler.hidingExpired(condition, at: hideExpiredAt)
        if let fullText {
            let conjuncts = fullText.map { alternatives in
                let expressions = alternatives.compactMap { QueryCompiler.ftsExpression($0.text, prefix: $0.prefix, column: nil) }
                return expressions.count == 1 ? expressions[0] : expressions.map { "(\($0))" }.joined(separator: " OR ")
            }
            guard !conjuncts.contains(where: \.isEmpty) else {
                self = .fullText(FullTextMatch(expression: "\"\""), filter: "0")
                return
            }
            let expression = conjuncts.count == 1 ? conjuncts[0] : conjuncts.map { "(\($0))" }.joined(separator: " AND ")
            guard parts.isEmpty, hideExpiredAt == nil else {
                self = .fullText(FullTextMatch(expression: expression), filter: filter)
                return
            }
            var word: String?
            if case let .fullText(text, false) = predicate {
                let words = QueryCompiler.fullTextWords(text)
                if words.count == 1 { word = words[0] }
            }
            self = .fullTextOnly(FullTextMatch(expression: expression, shortlistWord: word))
        } else if let membership {
            self = .listMembership(QueryCompiler.listMembership(membership.attribute, membership.value, prefix: false, table: "m"),
                                   filter: filter)
        } else if hideExpiredAt == nil, rest.isEverything {
            self = .everything
        } else {
            self = .filter(filter)
        }
    }

    /// The FROM clause.
    var from: SQL {
        switch self {
        case .everything, .filter: "items i"
        case .fullTextOnly, .fullText: "fts JOIN items i ON i.rowid = fts.rowid"
        case .listMembership: "list_values m JOIN items i ON i.rowid = m.item"
        }
    }

    /// The WHERE condition.
    var condition: SQL {
        switch self {
        case .everything: "1"
        case .fullTextOnly(let match): "fts MATCH \(match.expression)"
        case let .fullText(match, filter): "fts MATCH \(match.expression) AND (\(filter))"
        case let .listMembership(member, filter): "\(member) AND (\(filter))"
        case .filter(let filter): filter
        }
    }

    /// Whether BM25 ranks the rows (`fts.rank`).
    var isRanked: Bool {
        switch self {
        case .fullTextOnly, .fullText: true
        case .everything, .listMembership, .filter: false
        }
    }

    /// The rowid as the driving table yields it, which orders rows without a sort.
    var rowid: SQL {
        if case .listMembership = self { "m.item" } else { "i.rowid" }
    }
}

private extension QueryPredicate {
    /// The word searches FTS5 can answer as one match: a word search, or an OR of word searches
    /// (any of the words). Why the OR: matched as one FTS5 expression, BM25 ranks its items, so
    /// an item holding the rarer words, or more of them, comes first; as a condition over
    /// `items` they came back in index order. Nil for every other predicate.
    var wordAlternatives: [(text: String, prefix: Bool)]? {
        switch self {
        case let .fullText(text, prefix):
            return [(text, prefix)]
        case .or(let parts) where !parts.isEmpty:
            var alternatives: [(text: String, prefix: Bool)] = []
            for part in parts {
                guard case let .fullText(text, prefix) = part else { return nil }
                alternatives.append((text, prefix))
            }
            return alternatives
        default:
            return nil
        }
    }

    /// Whether the predicate is no condition at all (`all`, or an empty AND).
    var isEverything: Bool {
        switch self {
        case .all: true
        case .and(let parts): parts.isEmpty
        default: false
        }
    }
}
