import Foundation

/// Runs searches, fetches and aggregations on one (reader) connection.
struct QueryExecutor {
    let database: SQLiteDatabase
    let compiler: QueryCompiler
    let timeZone: TimeZone
    /// When set, items expiring at or before this instant are filtered out in SQL (used only while
    /// a batch keeps the writer from purging them).
    let hideExpiredAt: Date?

    /// The plan of `predicate` (see `QueryPlan`); without `drivers`, one whose condition alone
    /// filters `items i`, for a query that joins it to another table.
    private func plan(_ predicate: QueryPredicate, drivers: Bool = true) throws(SearchIndexError) -> QueryPlan {
        try QueryPlan(predicate, compiler: compiler, hidingExpiredAt: hideExpiredAt, drivers: drivers)
    }

    /// The hits of `query`; with `vector`, ranked by meaning (and, beside words, fused with
    /// BM25; see `meaningRankedHits`).
    func search(_ query: SearchQuery, vector: VectorQuery? = nil) throws(SearchIndexError) -> [SearchHit] {
        try search(query, vector: vector, countingFoundItems: false).hits
    }

    /// The hits and how many items the query found in all. A words-only query counts its
    /// matches while ranking them (one pass over the full-text index instead of two); any other
    /// runs the count beside the search, in the same read transaction, so both see one state.
    /// The count is the full-text match's (and the filters'), also when the hits are hybrid:
    /// a search by meaning ranks items but selects none.
    func searchCountingFoundItems(_ query: SearchQuery, vector: VectorQuery? = nil) throws(SearchIndexError) -> SearchResultPage {
        try database.readTransaction { () throws(SearchIndexError) -> SearchResultPage in
            let (hits, counted) = try search(query, vector: vector, countingFoundItems: true)
            if let counted { return SearchResultPage(hits: hits, foundItemCount: counted) }
            guard case .count(let count) = try aggregate(.count, where: query.predicate) else { return SearchResultPage(hits: hits, foundItemCount: 0) }
            return SearchResultPage(hits: hits, foundItemCount: count)
        }
    }

    /// The hits with their passages when the query asks for snippets, and the number of matches
    /// when the query counted them on the way. A hit ranked by meaning whose passages hold none
    /// of the words shows its passage nearest in meaning.
    private func search(_ query: SearchQuery, vector: VectorQuery?, countingFoundItems: Bool) throws(SearchIndexError) -> (hits: [SearchHit], counted: Int?) {
        var (hits, counted, nearest): ([SearchHit], Int?, [String: VectorMatrix.Match])
        if let vector {
            (hits, counted, nearest) = try meaningRankedHits(query, vector: vector, countingFoundItems: countingFoundItems)
        } else {
            (hits, counted) = try rankedHits(query, countingFoundItems: countingFoundItems)
            nearest = [:]
        }
        if let length = query.snippetLength, !hits.isEmpty {
            let matches = try passages.matches(identifiers: hits.map(\.item.uniqueIdentifier),
                                               words: PassageReader.words(of: query.predicate), snippetLength: length)
            for index in hits.indices {
                let identifier = hits[index].item.uniqueIdentifier
                hits[index].passage = matches[identifier]
                guard let near = nearest[identifier], matches[identifier]?.matchedWords.isEmpty ?? true,
                      let passage = try passages.passage(of: identifier, at: .passage(near.passage)) else { continue }
                hits[index].passage = PassageMatch(passage: passage, snippet: meaningSnippet(of: passage, sentence: near.sentence, length: length),
                                                   matchedWords: [])
            }
        }
        return (hits, counted)
    }

    /// The snippet of a passage found by meaning: around its sentence piece nearest the query
    /// (the window holding most of that piece's words), or its start when the nearest was the
    /// item's title and description.
    private func meaningSnippet(of passage: Passage, sentence: Int?, length: Int) -> String {
        let pieces = SentencePieces.pieces(of: passage.text)
        let words = sentence.flatMap { pieces.indices.contains($0) ? database.tokens(of: pieces[$0]) : nil } ?? []
        let stems = words.map { (word: $0.stem, stem: $0.stem) }
        return SnippetMaker(words: stems, length: length).snippet(of: passage.text, tokens: database.tokens(of: passage.text)).snippet
    }

    /// A search ranked by meaning: the items whose best passage's vector is nearest the query's
    /// (exact, over every vector; `VectorMatrix`), the candidates filtered in SQL by the rest of
    /// the predicate. With words as well, each side ranks `VectorQuery.candidateCount` items
    /// (at least the page's end) and reciprocal rank fusion (`RankFusion`) orders them; the
    /// scores are then the fused ones, otherwise the cosines. Also returns each meaning-ranked
    /// item's nearest passage.
    private func meaningRankedHits(_ query: SearchQuery, vector: VectorQuery, countingFoundItems: Bool) throws(SearchIndexError)
        -> (hits: [SearchHit], counted: Int?, nearest: [String: VectorMatrix.Match]) {
        guard query.sort.first == .relevance || query.sort.isEmpty else {
            throw .unsupportedOperation("a search by meaning sorted by an attribute; sort it by relevance, or search for words to sort by \(query.sort)")
        }
        let offset = max(0, query.offset)
        let wanted = max(VectorQuery.candidateCount, (query.limit ?? VectorQuery.candidateCount) + offset)
        let fetch = Set(query.fetchAttributes).subtracting([.textContent])
        let filter = try plan(query.predicate.removingTopLevel(meaning: true, words: true), drivers: false)
        var allowed: Set<Int64>?
        if case .everything = filter {} else {
            allowed = Set(try database.query("SELECT i.rowid FROM items i WHERE \(filter.condition)") { $0.integer(0) })
        }
        let matrix = try vector.matrix.matrix(on: database, dimension: vector.vector.count)
        let matches = matrix.nearest(to: vector.vector, limit: wanted, allowed: allowed)
        let items = try loadItems(rowids: matches.map(\.item), fetch: fetch)
        var meaningHits: [SearchHit] = []
        var nearest: [String: VectorMatrix.Match] = [:]
        // candidates the filter already holds to some words (words under an OR) hold words
        let candidatesHoldWords = !query.predicate.removingTopLevel(meaning: true, words: true).fullTextTerms.isEmpty
        for match in matches {
            guard let item = items[match.item] else { continue }
            meaningHits.append(SearchHit(item: item, score: Double(match.score), isNearInMeaningOnly: !candidatesHoldWords,
                                         nearness: Double(match.score)))
            nearest[item.uniqueIdentifier] = match
        }
        guard query.predicate.topLevelWords != nil else {
            let page = meaningHits.dropFirst(offset).prefix(query.limit ?? meaningHits.count)
            return (Array(page), nil, nearest)
        }
        var wordsQuery = query
        wordsQuery.predicate = query.predicate.removingTopLevel(meaning: true, words: false)
        wordsQuery.limit = wanted
        wordsQuery.offset = 0
        let (wordHits, counted) = try rankedHits(wordsQuery, countingFoundItems: countingFoundItems)
        var byIdentifier = Dictionary(meaningHits.map { ($0.item.uniqueIdentifier, $0) }, uniquingKeysWith: { first, _ in first })
        for hit in wordHits { byIdentifier[hit.item.uniqueIdentifier] = hit }
        let fused = RankFusion.fuse([wordHits.map(\.item.uniqueIdentifier), meaningHits.map(\.item.uniqueIdentifier)])
        let page = fused.dropFirst(offset).prefix(query.limit ?? fused.count).compactMap { identifier, score in
            byIdentifier[identifier].map {
                SearchHit(item: $0.item, score: score, isNearInMeaningOnly: $0.isNearInMeaningOnly, nearness: nearest[identifier].map { Double($0.score) })
            }
        }
        return (page, counted, nearest)
    }

    var passages: PassageReader { PassageReader(database: database, hideExpiredAt: hideExpiredAt) }

    /// The hits, and the number of matches when the query counted them on the way.
    private func rankedHits(_ query: SearchQuery, countingFoundItems: Bool) throws(SearchIndexError) -> (hits: [SearchHit], counted: Int?) {
        let plan = try self.plan(query.predicate)
        let limit = query.limit ?? -1
        let offset = max(0, query.offset)
        let fetch = Set(query.fetchAttributes).subtracting([.textContent])

        // Fast path: pure full-text top-N lets FTS5 rank and cut before touching items.
        if case .fullTextOnly(let match) = plan, query.sort.first == .relevance || query.sort.isEmpty {
            // FTS5 computes `rank` for these forms without reading any other table; the bounded
            // one walks matches newest first and stops after `matches`. `+rank` is an expression,
            // not the column, so FTS5 does not take over the ORDER BY: left to FTS5, it sorts
            // every match in full, while SQLite's sorter keeps only the best LIMIT + OFFSET
            // (Benchmarks/RESULTS.md, the index section's full-text rows). rowid orders equal scores.
            // Counting: every match passes `lantern_tally()` before the sorter cuts them.
            if query.ranking == .exact, let limit = query.limit, let word = match.shortlistWord,
               let shortlisted = try rankedFromShortlist(oneWord: word, first: limit + offset) {
                let ranks = shortlisted.ranks.dropFirst(offset).prefix(limit)
                return (try hits(ranked: Array(ranks), fetch: fetch), countingFoundItems ? shortlisted.itemCount : nil)
            }
            let counting = countingFoundItems && query.ranking == .exact
            let sql: SQL
            if case .mostRecent(let matches) = query.ranking {
                sql = """
                    SELECT rowid, score FROM (SELECT rowid, rank AS score FROM fts WHERE fts MATCH \(match.expression) ORDER BY rowid DESC LIMIT \(max(0, matches))) \
                    ORDER BY score, rowid LIMIT \(limit) OFFSET \(offset)
                    """
            } else {
                let tally: SQL = counting ? " AND lantern_tally()" : ""
                sql = "SELECT rowid, rank FROM fts WHERE fts MATCH \(match.expression)\(tally) ORDER BY +rank, rowid LIMIT \(limit) OFFSET \(offset)"
            }
            database.tally = 0
            let ranks = try database.query(sql) { (rowid: $0.integer(0), score: -$0.double(1)) }
            return (try hits(ranked: ranks, fetch: fetch), counting ? database.tally : nil)
        }
        var orderings: [SQL] = []
        for order in query.sort {
            switch order {
            case .relevance: if plan.isRanked { orderings.append("fts.rank") }
            case let .attribute(attribute, ascending): orderings.append(try compiler.order(attribute, ascending: ascending))
            }
        }
        orderings.append(plan.rowid)
        let selection: ItemSelection = plan.isRanked ? .scored : .items
        let scoreColumn = selection.position(of: .score)
        let rows = try database.query("""
            SELECT \(selection.columns) FROM \(plan.from) WHERE \(plan.condition) ORDER BY \(orderings.joined(separator: ", ")) \
            LIMIT \(limit) OFFSET \(offset)
            """) { row in
            (ItemSelection.decode(row, fetch: fetch), scoreColumn.map { -row.double($0) })
        }
        let custom = try customValues(rowids: rows.map(\.0.rowid), fetch: fetch)
        let hits = rows.map { decoded, score in
            var item = decoded.item
            for (attribute, value) in custom[decoded.rowid] ?? [:] { item.attributeSet[attribute] = value }
            return SearchHit(item: item, score: score)
        }
        return (hits, nil)
    }

    /// Hits for ranked rowids, in their order, with only `fetch` attributes.
    private func hits(ranked: [(rowid: Int64, score: Double)], fetch: Set<SearchableItemAttribute>) throws(SearchIndexError) -> [SearchHit] {
        let items = try loadItems(rowids: ranked.map(\.rowid), fetch: fetch)
        return ranked.compactMap { rowid, score in items[rowid].map { SearchHit(item: $0, score: score) } }
    }

    /// A one-word query's top `n` ranked from the word's shortlist (see `TermShortlist`), and
    /// how many items hold the word; nil when the word is not one token of the index or its
    /// shortlist does not reach `n`. Its reads share one snapshot, so the counts match the members.
    func rankedFromShortlist(oneWord word: String, first n: Int) throws(SearchIndexError)
        -> (ranks: [(rowid: Int64, score: Double)], itemCount: Int)? {
        guard let token = database.singleToken(word) else { return nil }
        try database.execute("SAVEPOINT shortlist")
        defer { try? database.execute("RELEASE shortlist") }
        guard let (itemCount, data) = try database.query("SELECT count, data FROM term_shortlists WHERE term = \(token)", {
                  ($0.integer(0), $0.blob(1) ?? [])
              }).first,
              let shortlist = TermShortlist(data), shortlist.covers(n, itemCount: itemCount),
              let totals = try database.query("SELECT lantern_totals(fts) FROM fts WHERE fts MATCH \(QueryCompiler.phrase(word)) LIMIT 1",
                                              { $0.blob(0) }).first ?? nil,
              totals.count == 16
        else { return nil }
        let (rowCount, totalLength) = totals.withUnsafeBytes {
            ($0.loadUnaligned(as: Int64.self), $0.loadUnaligned(fromByteOffset: 8, as: Int64.self))
        }
        let ranks = shortlist.ranked(itemCount: itemCount, rowCount: rowCount, totalLength: totalLength)
        return (Array(ranks.prefix(n)), Int(itemCount))
    }

    /// Items by rowid with only `fetch` attributes (plus identifiers).
    private func loadItems(rowids: [Int64], fetch: Set<SearchableItemAttribute>) throws(SearchIndexError) -> [Int64: SearchableItem] {
        guard !rowids.isEmpty else { return [:] }
        let condition = QueryCompiler.hidingExpired("i.rowid IN (\(values: rowids.map(SQLiteValue.integer), separator: ","))", at: hideExpiredAt)
        let rows = try database.query("SELECT \(ItemSelection.items.columns) FROM items i WHERE \(condition)") {
            ItemSelection.decode($0, fetch: fetch)
        }
        let custom = try customValues(rowids: rows.map(\.rowid), fetch: fetch)
        var items: [Int64: SearchableItem] = [:]
        for row in rows {
            var item = row.item
            for (attribute, value) in custom[row.rowid] ?? [:] { item.attributeSet[attribute] = value }
            items[row.rowid] = item
        }
        return items
    }

    private func customValues(rowids: [Int64], fetch: Set<SearchableItemAttribute>?) throws(SearchIndexError)
        -> [Int64: [SearchableItemAttribute: AttributeValue]] {
        let wanted = compiler.customKeys.values.filter { fetch?.contains($0.key.attribute) ?? true }
        guard !rowids.isEmpty, !wanted.isEmpty else { return [:] }
        let kinds = Dictionary(uniqueKeysWithValues: wanted.map { ($0.key.keyName, $0.kind) })
        let rows = try database.query("""
            SELECT item, key, text, number FROM custom_values WHERE item IN (\(values: rowids.map(SQLiteValue.integer), separator: ",")) \
            ORDER BY item, key, position
            """) { row in
            (row.integer(0), row.text(1) ?? "", row.text(2), row.isNull(3) ? nil : row.double(3))
        }
        var result: [Int64: [SearchableItemAttribute: AttributeValue]] = [:]
        for (rowid, key, text, number) in rows {
            guard let kind = kinds[key] else { continue }
            let attribute = SearchableItemAttribute(rawValue: key)
            switch kind {
            case .string: if let text { result[rowid, default: [:]][attribute] = .string(text) }
            case .strings:
                if let text {
                    let existing = result[rowid]?[attribute]?.stringsValue ?? []
                    result[rowid, default: [:]][attribute] = .strings(existing + [text])
                }
            case .number: if let number { result[rowid, default: [:]][attribute] = .number(number) }
            case .date: if let number { result[rowid, default: [:]][attribute] = .date(Date(timeIntervalSince1970: number)) }
            }
        }
        return result
    }

    /// Complete items, textContent included; identifiers whose text fails to decode are returned
    /// in `corrupt` so the caller can ask the delegate to reindex them.
    func fetchItems(identifiers: [String]) throws(SearchIndexError) -> (items: [SearchableItem], corrupt: [String]) {
        // SQLite caps the variables of one statement: long lists are read in parts
        guard identifiers.count <= Self.identifiersPerStatement else {
            var items: [SearchableItem] = [], corrupt: [String] = []
            for start in stride(from: 0, to: identifiers.count, by: Self.identifiersPerStatement) {
                let part = try fetchItems(identifiers: Array(identifiers[start..<min(identifiers.count, start + Self.identifiersPerStatement)]))
                items += part.items
                corrupt += part.corrupt
            }
            return (items, corrupt)
        }
        guard !identifiers.isEmpty else { return ([], []) }
        let condition = QueryCompiler.hidingExpired("i.identifier IN (\(values: identifiers.map(SQLiteValue.text), separator: ","))", at: hideExpiredAt)
        let selection = ItemSelection.complete
        let (textLength, storedText) = (selection.position(of: .textLength), selection.position(of: .storedText))
        let rows = try database.query(
            "SELECT \(selection.columns) FROM items i LEFT JOIN item_text t ON t.rowid = i.rowid WHERE \(condition)") { row in
            (ItemSelection.decode(row, fetch: nil), textLength.map { !row.isNull($0) } ?? false, storedText.flatMap { row.blob($0) })
        }
        let custom = try customValues(rowids: rows.map(\.0.rowid), fetch: nil)
        var byIdentifier: [String: SearchableItem] = [:]
        var corrupt: [String] = []
        for (decoded, hasText, blob) in rows {
            var item = decoded.item
            for (attribute, value) in custom[decoded.rowid] ?? [:] { item.attributeSet[attribute] = value }
            if hasText {
                guard let blob, let text = TextCompression.decode(blob),
                      let body = text.split(separator: "\u{0}", maxSplits: 2, omittingEmptySubsequences: false).dropFirst(2).first
                else {
                    corrupt.append(item.uniqueIdentifier)
                    continue
                }
                item.attributeSet.textContent = String(body)
            }
            byIdentifier[item.uniqueIdentifier] = item
        }
        return (identifiers.compactMap { byIdentifier[$0] }, corrupt)
    }

    /// Identifiers bound in one statement at most (well under SQLite's variable cap).
    static let identifiersPerStatement = 500

    // MARK: Aggregations

    func aggregate(_ aggregation: SearchAggregation, where predicate: QueryPredicate) throws(SearchIndexError) -> AggregationResult {
        switch aggregation {
        case .count:
            let plan = try self.plan(predicate)
            let sql: SQL
            if case .fullTextOnly(let match) = plan {
                // Every item has one row in `fts`, so a pure full-text count needs no join to `items`.
                sql = "SELECT count(*) FROM fts WHERE fts MATCH \(match.expression)"
            } else {
                sql = "SELECT count(*) FROM \(plan.from) WHERE \(plan.condition)"
            }
            let count = try database.query(sql) { $0.integer(0) }.first ?? 0
            return .count(Int(count))
        case let .statistic(statistic, attribute):
            let plan = try self.plan(predicate)
            let expression = try compiler.numericExpression(attribute)
            // Only items with a value matter (the functions skip NULLs); saying so lets SQLite answer
            // from the attribute's partial index, a narrow covering walk, instead of reading every
            // wide `items` row for one number.
            let function = Self.function(statistic)
            let sql: SQL = """
                SELECT \(function)(\(expression)), count(\(expression)) FROM \(plan.from) \
                WHERE \(expression) IS NOT NULL AND (\(plan.condition))
                """
            let row = try database.query(sql) { row in
                (row.isNull(0) ? nil : row.double(0), Int(row.integer(1)))
            }.first
            return .statistic(row?.0, count: row?.1 ?? 0)
        case let .groupBy(attribute, statistic, limit):
            return try groupBy(attribute, statistic: statistic, limit: limit, where: predicate)
        case let .groupByDate(attribute, unit, statistic):
            return try groupByDate(attribute, unit: unit, statistic: statistic, where: predicate)
        }
    }

    private static func function(_ statistic: Statistic) -> SQL {
        switch statistic {
        case .sum: "total"
        case .average: "avg"
        case .minimum: "min"
        case .maximum: "max"
        }
    }

    private func groupBy(_ attribute: SearchableItemAttribute, statistic: GroupStatistic?, limit: Int,
                         where predicate: QueryPredicate) throws(SearchIndexError) -> AggregationResult {
        var statExpression: SQL = ""
        if let statistic {
            let expression = try compiler.numericExpression(statistic.attribute)
            statExpression = ", \(Self.function(statistic.statistic))(\(expression))"
        }
        let resolved = try compiler.resolve(attribute)
        var keyKind: AttributeKind
        var select: SQL
        switch resolved {
        case .text:
            throw .unsupportedOperation("grouping by textContent; group by a short attribute such as keywords or contentType")
        case let .column(_, kind) where kind == .strings:
            keyKind = .string
            let plan = try self.plan(predicate, drivers: false)
            if statistic == nil, case .everything = plan {
                // Over every item, the counts every write keeps (one row per distinct value).
                select = "SELECT value, count FROM list_counts WHERE attribute = \(IndexSchema.listCode(attribute))"
            } else {
                select = """
                    SELECT lv.value, count(*)\(statExpression) FROM list_values lv JOIN items i ON i.rowid = lv.item \
                    WHERE lv.attribute = \(IndexSchema.listCode(attribute)) AND (\(plan.condition)) GROUP BY lv.value
                    """
            }
        case let .column(column, kind):
            keyKind = kind
            let plan = try self.plan(predicate)
            select = """
                SELECT \(column), count(*)\(statExpression) FROM \(plan.from) \
                WHERE \(column) IS NOT NULL AND (\(plan.condition)) GROUP BY \(column)
                """
        case let .custom(key, kind):
            keyKind = kind == .strings ? .string : kind
            let field: SQL = kind == .number || kind == .date ? "cv.number" : "cv.text"
            let condition = try self.plan(predicate, drivers: false).condition
            select = """
                SELECT \(field), count(DISTINCT cv.item)\(statExpression) FROM custom_values cv JOIN items i ON i.rowid = cv.item \
                WHERE cv.key = \(key) AND \(field) IS NOT NULL AND (\(condition)) GROUP BY \(field)
                """
        }
        let boundedLimit = max(1, limit)
        let rows = try database.query("\(select) ORDER BY 2 DESC, 1 LIMIT \(boundedLimit + 1)") { row in
            let key: AttributeValue
            switch keyKind {
            case .number: key = .number(row.double(0))
            case .date: key = .date(Date(timeIntervalSince1970: row.double(0)))
            case .string, .strings: key = .string(row.text(0) ?? "")
            }
            return AggregationGroup(key: key, label: key.description, count: Int(row.integer(1)),
                                    value: statistic == nil || row.isNull(2) ? nil : row.double(2))
        }
        return .groups(Array(rows.prefix(boundedLimit)), isComplete: rows.count <= boundedLimit)
    }

    private func groupByDate(_ attribute: SearchableItemAttribute, unit: DateGroupingUnit, statistic: GroupStatistic?,
                             where predicate: QueryPredicate) throws(SearchIndexError) -> AggregationResult {
        let value = try statistic.map { (statistic) throws(SearchIndexError) in try compiler.numericExpression(statistic.attribute) }
        var days: [Int64: GroupTotals] = [:]
        switch try compiler.resolve(attribute) {
        case let .column(_, kind) where kind == .date:
            let day = IndexSchema.itemColumn(IndexSchema.dayColumn(attribute))
            let plan = try self.plan(predicate)
            if let value {
                // A statistic needs each item's row: one scan of `items` hashing days
                // (`GroupTotalsAccumulator`) beats walking the day index and reading every row by
                // rowid, or sorting a million rows for GROUP BY. `+` keeps the planner off the day
                // index for the mere presence test; other filters still pick their indexes.
                let blob = try database.query(
                    "SELECT lantern_group_totals(\(day), \(value)) FROM \(plan.from) WHERE +\(day) IS NOT NULL AND (\(plan.condition))"
                ) { $0.blob(0) ?? [] }.first ?? []
                guard let decoded = GroupTotalsAccumulator.decode(blob) else {
                    throw .database(message: "the day totals of \(attribute) came back malformed (\(blob.count) bytes, not whole records): a Lantern bug; please report it", code: 0, sql: "lantern_group_totals")
                }
                days = decoded
            } else {
                // Only the count: a walk of the (day, date) index, which is narrow and in day order.
                let rows = try database.query(
                    "SELECT \(day), count(*) FROM \(plan.from) WHERE \(day) IS NOT NULL AND (\(plan.condition)) GROUP BY \(day)"
                ) { ($0.integer(0), Int($0.integer(1))) }
                for (key, count) in rows { days[key] = GroupTotals(count: count) }
            }
        case let .custom(key, kind) where kind == .date:
            let condition = try self.plan(predicate, drivers: false).condition
            var statisticColumns: SQL = ""
            if let value { statisticColumns = ", total(\(value)), count(\(value)), min(\(value)), max(\(value))" }
            let rows = try database.query("""
                SELECT cv.day, count(*)\(statisticColumns) FROM custom_values cv JOIN items i ON i.rowid = cv.item \
                WHERE cv.key = \(key) AND cv.day IS NOT NULL AND (\(condition)) GROUP BY cv.day
                """) { row in
                (row.integer(0), GroupTotals(count: Int(row.integer(1)), sum: value == nil ? 0 : row.double(2),
                                             valueCount: value == nil ? 0 : Int(row.integer(3)),
                                             minimum: value == nil || row.isNull(4) ? nil : row.double(4),
                                             maximum: value == nil || row.isNull(5) ? nil : row.double(5)))
            }
            for (key, totals) in rows { days[key] = totals }
        default:
            throw .unsupportedOperation("grouping \(attribute) by \(unit): it is not a date attribute")
        }
        // Days are few (one entry per distinct day); rolling them up to weeks, months or years is exact.
        var buckets: [Int64: GroupTotals] = [:]
        for (day, totals) in days { buckets[DayNumber.bucketStart(day, unit: unit), default: GroupTotals()].merge(totals) }
        let groups = buckets.keys.sorted().compactMap { start -> AggregationGroup? in
            guard let bucket = buckets[start] else { return nil }
            var value: Double?
            switch statistic?.statistic {
            case .sum: value = bucket.sum
            case .average: value = bucket.valueCount > 0 ? bucket.sum / Double(bucket.valueCount) : nil
            case .minimum: value = bucket.minimum
            case .maximum: value = bucket.maximum
            case nil: value = nil
            }
            return AggregationGroup(key: .date(DayNumber.startDate(start, in: timeZone)),
                                    label: DayNumber.label(start, unit: unit), count: bucket.count, value: value)
        }
        return .groups(groups, isComplete: true)
    }

    /// The distinct domains of the items, in order, at most `limit`: one seek in the domain
    /// index each, so the cost stays the same however many items share a domain.
    func domainIdentifiers(limit: Int) throws(SearchIndexError) -> [String] {
        var domains: [String] = []
        while domains.count < limit,
              let next = try database.query("SELECT min(domain) FROM items WHERE domain > \(domains.last ?? "")", { $0.text(0) }).first ?? nil {
            domains.append(next)
        }
        return domains
    }

    /// Which attributes items have, with counts (one pass over `items`, one over custom values).
    func attributeCatalogue() throws(SearchIndexError) -> [AttributeSummary] {
        let counts = IndexSchema.columns.map { "count(\"\($0.attribute.rawValue)\")" }.joined(separator: ", ")
        let row = try database.query("SELECT count(textLength), \(sql: counts) FROM items") { row in
            (0...IndexSchema.columns.count).map { Int(row.integer($0)) }
        }.first ?? []
        var summaries: [AttributeSummary] = []
        if let textCount = row.first, textCount > 0 {
            summaries.append(AttributeSummary(attribute: .textContent, kind: .string, itemCount: textCount, isCustom: false))
        }
        for (column, count) in zip(IndexSchema.columns, row.dropFirst()) where count > 0 {
            summaries.append(AttributeSummary(attribute: column.attribute, kind: column.kind, itemCount: count, isCustom: false))
        }
        let custom = try database.query("SELECT key, count(DISTINCT item) FROM custom_values GROUP BY key ORDER BY key") {
            ($0.text(0) ?? "", Int($0.integer(1)))
        }
        for (key, count) in custom {
            guard let record = compiler.customKeys[key] else { continue }
            summaries.append(AttributeSummary(attribute: record.key.attribute, kind: record.kind, itemCount: count, isCustom: true))
        }
        return summaries
    }
}
