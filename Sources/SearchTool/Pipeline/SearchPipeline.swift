import Foundation
import LocalModel
import SearchIndex

/// Runs one query: the search on every source, then each stage on the previous output, inside
/// SQLite wherever the data is still "the items matching the predicate" (counts, groups and
/// statistics never load the items). Emits one reply per stage.
struct SearchPipeline: Sendable {
    /// The request as it runs: the model's, with what `grounding` added or gave up.
    private(set) var request: SearchRequest
    let sources: [ResolvedSource]
    let capabilities: QueryCapabilities
    let contactResolver: (any ContactResolver)?
    let hydrator: Hydrator
    let formatter: ResultFormatter
    let now: Date
    /// Bytes of each result's snippet (nil: no passages).
    let snippetLength: Int?
    /// How the words find items (`SearchTool.Configuration.wordsSearch`).
    let wordsSearch: WordsSearch
    /// The question the search terms were drawn from, when the grammar limits them to its words:
    /// the meaning side of a hybrid search ranks by it, since it says more than the two or three
    /// words a small model picks from it. nil: the terms' own meaning.
    let question: String?
    /// What the question states, which adds to the model's query and decides what a query that
    /// found nothing may give up (`QuestionGrounding`); `.none` runs the query as written.
    let grounding: QuestionGrounding
    static let defaultLimit = 10
    static let itemsPerGroup = 3
    static let groupsWithItems = 5

    struct Outcome: Sendable {
        var matched: Int
        var items: [SearchableItem]
        /// The search results' best passages, by item identifier.
        var passages: [String: PassageMatch]
        /// The results found by meaning alone (not holding the words), by identifier.
        var nearInMeaningOnly: Set<String>
        var final: SearchPipelineData?
        var notes: [String]
        /// What the tool added to the model's query or gave up from it, in order.
        var adjustments: [QueryAdjustment]
        /// The average or total the question asks (`QuestionGrounding.statistic`) when the
        /// query computes none itself.
        var askedStatistic: SearchStatistic?
    }

    /// The search's top results, and how many items matched in all the sources.
    private struct Found {
        var items: [SearchableItem]
        var passages: [String: PassageMatch]
        var nearInMeaningOnly: Set<String>
        var matched: Int
        var notes: [String]
    }

    /// Items after hydration, with what the reader should know about it.
    private struct Hydrated {
        var items: [SearchableItem]
        var notes: [String]
    }

    /// A result of one source, ranked among all sources' by score, then by source and rank.
    private struct Ranked {
        var item: SearchableItem
        var score: Double?
        var position: Int
    }

    /// Runs the search and its stages; `emit` gets each stage's data with the search results'
    /// best passages.
    /// The question's conditions are added first; when nothing matches, the conditions without
    /// ground are given up in `QuestionGrounding.relaxations` order, then all terms but one, then
    /// the terms when the question's conditions alone select items, then the terms are replaced
    /// by the question's own words (under the request's conditions, else under each relaxation's),
    /// unless the search shows items found by meaning: that side already ranks by the whole
    /// question, and the question's common words ("trip") would put items that merely hold them
    /// in place of the one nearest in meaning. A step is kept only when it finds something the
    /// search before it did not; the adjustments say each step kept.
    func run(emit: (SearchPipelineData, _ stage: Int, _ isLast: Bool, _ passages: [String: PassageMatch],
                    _ adjustments: [QueryAdjustment]) -> Void) async throws -> Outcome {
        var pipeline = self
        let narrowed = grounding.narrowed(request)
        pipeline.request = narrowed.request
        return try await pipeline.runNarrowed(adjustments: narrowed.adjustments, emit: emit)
    }

    private mutating func runNarrowed(adjustments added: [QueryAdjustment],
                                      emit: (SearchPipelineData, Int, Bool, [String: PassageMatch], [QueryAdjustment]) -> Void) async throws -> Outcome {
        var notes: [String] = []
        var adjustments = added
        var (predicates, found, anyTerm) = try await searchingAllOrAnyTerms()
        // the steps are the same for the question's words below: no step was kept when they run
        let relaxations = found.matched == 0 ? grounding.relaxations(of: request) : []
        if found.matched == 0 {
            for step in relaxations {
                if let relaxed = try await relaxedSearch(with: step, improvingOn: found) {
                    (predicates, found, anyTerm) = relaxed
                    adjustments += step.adjustments
                    break
                }
            }
        }
        if found.matched == 0, let step = grounding.withoutTerms(request),
           let relaxed = try await relaxedSearch(with: step, improvingOn: found) {
            (predicates, found, anyTerm) = relaxed
            adjustments += step.adjustments
        }
        if found.matched == 0, found.items.isEmpty, try await noItemHoldsTheTerms() {
            let unrelaxed = QuestionGrounding.Adjusted(request: request, adjustments: [])
            for base in [unrelaxed] + relaxations {
                guard let step = grounding.withQuestionWords(base.request),
                      let relaxed = try await relaxedSearch(with: step, improvingOn: found) else { continue }
                (predicates, found, anyTerm) = relaxed
                adjustments += base.adjustments + step.adjustments
                break
            }
        }
        if anyTerm && found.matched > 0 { notes.append("No item has all of the terms; these have at least one.") }
        notes += adjustments.map { "\($0)." }
        if found.matched == 0, let hint = try await emptyResultHint() { notes.append(hint) }
        notes += found.notes
        var items = found.items
        emit(.items(items), 0, request.stages.isEmpty, found.passages, adjustments)
        var value = PipelineValue.matching(predicates)
        var final: SearchPipelineData?
        for (number, stage) in request.stages.enumerated() {
            let next = request.stages.indices.contains(number + 1) ? request.stages[number + 1] : nil
            value = try await apply(stage, to: value, matched: found.matched, items: items, next: next)
            let data = value.data
            emit(data, number + 1, number == request.stages.count - 1, found.passages, adjustments)
            final = data
            if case .data(let produced) = value, !produced.items.isEmpty { items = produced.items }
        }
        let asked = found.matched > 0 ? try await askedStatistic(searched: predicates, found: found.items) : nil
        return Outcome(matched: found.matched, items: items, passages: found.passages, nearInMeaningOnly: found.nearInMeaningOnly,
                       final: final, notes: notes, adjustments: adjustments, askedStatistic: asked)
    }

    /// The statistic the question asks, when the query has no stage that reduces the items to
    /// numbers: over the items the question's conditions select (the terms of "the average
    /// distance of my California hikes" are the statistic's words, not the items'), or over
    /// the search's matches (`searched`, which found `found`) when the question states no
    /// condition. Computed from a few items, it names them, as the count for "how many" does.
    private func askedStatistic(searched: [QueryPredicate], found: [SearchableItem]) async throws -> SearchStatistic? {
        guard let asked = grounding.statistic, !request.stages.contains(where: \.reducesToNumbers) else { return nil }
        var scope = self
        var predicates = searched
        let byConditions = !request.added.isEmpty || !request.filters.isEmpty || request.dates != nil
        if byConditions {
            scope.request.terms = []
            predicates = try sources.map { try scope.predicate(for: $0, anyTerm: false) }
        }
        var result = try await scope.statistic(asked.function, asked.attribute, predicates)
        guard (1...Self.defaultLimit).contains(result.sampleCount) else { return result }
        let items = byConditions ? try await scope.search(predicates).items : found
        let titles = items.compactMap(\.attributeSet.title)
        if titles.count == result.sampleCount { result.itemTitles = titles }
        return result
    }

    /// The request's search with all of its terms; when no item has all, with any of them,
    /// when some item has one (else what the search found by meaning alone stays). Each
    /// relaxation is tried both ways, so a date range given up can still find the items that
    /// hold some of the words.
    private func searchingAllOrAnyTerms() async throws -> ([QueryPredicate], Found, anyTerm: Bool) {
        let predicates = try sources.map { try predicate(for: $0, anyTerm: false, meaning: true) }
        let found = try await search(predicates)
        guard found.matched == 0, request.terms.count > 1 else { return (predicates, found, false) }
        let anyTerm = try sources.map { try predicate(for: $0, anyTerm: true, meaning: true) }
        let foundAny = try await search(anyTerm, anyTerm: true)
        return foundAny.matched > 0 || found.items.isEmpty ? (anyTerm, foundAny, true) : (predicates, found, false)
    }

    /// Runs `step`'s request; when it does better than `current` (its words match items, or it
    /// finds items by meaning where `current` found none at all), makes it the request and returns
    /// its predicates and results. Otherwise the request stays as it was. Results by meaning count:
    /// a paraphrase's words match nothing, and a date range the model invented for it must not
    /// hide the notes nearest in meaning.
    private mutating func relaxedSearch(with step: QuestionGrounding.Adjusted,
                                        improvingOn current: Found) async throws -> ([QueryPredicate], Found, anyTerm: Bool)? {
        var trial = self
        trial.request = step.request
        let (predicates, found, anyTerm) = try await trial.searchingAllOrAnyTerms()
        guard found.matched > 0 || (current.items.isEmpty && !found.items.isEmpty) else { return nil }
        request = step.request
        return (predicates, found, anyTerm)
    }

    /// A term as a search matches it: one word of five letters or more also matches the words
    /// it begins ("water" finds "waterfall", as Spotlight matches the start of words); a shorter
    /// one, or several words, match whole words only ("fee" does not find "feeding", nor "they" "their").
    static func termMatch(_ term: String) -> QueryPredicate {
        .fullText(term, prefix: term.count >= 5 && term.allSatisfy(\.isLetter))
    }

    /// Whether no item of any source holds any of the request's terms, whatever its conditions:
    /// the terms, not the conditions, are then why nothing matched ("waterfall" in Arizona finds
    /// nothing because no Arizona trail has one, and that is the answer).
    private func noItemHoldsTheTerms() async throws -> Bool {
        let anyTerm = QueryPredicate.or(request.terms.map(Self.termMatch))
        for source in sources where try await source.index.count(where: anyTerm) > 0 { return false }
        return true
    }

    // MARK: The search

    /// When nothing matched but the date range or the filters alone excluded every match, says
    /// how many match without them, so the model (or a reader of the trace) can tell a condition
    /// it added from an empty index.
    private func emptyResultHint() async throws -> String? {
        func count(dates: Bool, filters: Bool) async throws -> Int {
            var total = 0
            for source in sources {
                total += try await source.index.count(where: try predicate(for: source, anyTerm: false, dates: dates, filters: filters))
            }
            return total
        }
        func items(_ count: Int) -> String { count == 1 ? "1 item matches" : "\(count) items match" }
        if request.dates != nil, case let count = try await count(dates: false, filters: true), count > 0 {
            return "None in that date range; \(items(count)) without it."
        }
        if !request.filters.isEmpty, case let count = try await count(dates: true, filters: false), count > 0 {
            return "None pass the filters; \(items(count)) without them."
        }
        return nil
    }

    /// The request as a predicate; with `meaning`, a words search on an index with vectors also
    /// ranks by the question's meaning (`question`), unless it searches words only or sorts by
    /// an attribute.
    private func predicate(for source: ResolvedSource, anyTerm: Bool, meaning: Bool = false, dates includeDates: Bool = true,
                           filters includeFilters: Bool = true) throws(SearchToolError) -> QueryPredicate {
        var parts: [QueryPredicate] = []
        if !request.terms.isEmpty {
            if anyTerm {
                parts.append(.or(request.terms.map(Self.termMatch)))
            } else {
                parts += request.terms.flatMap { $0.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { Self.termMatch(String($0)) } }
            }
        }
        for filter in includeFilters ? request.filters : [] {
            switch filter {
            case .text(let text):
                let attribute = text.attribute
                try check(attribute, in: capabilities.stringAttributes, "a text filter")
                let isList = attribute.standardKind == .strings
                parts.append(text.exact
                    ? (isList ? .contains(attribute, text.value) : .match(attribute, pattern: text.value, kind: .exact, options: [.caseInsensitive, .diacriticInsensitive]))
                    : .match(attribute, pattern: text.value, kind: .contains, options: [.caseInsensitive, .diacriticInsensitive]))
            case .number(let number):
                try check(number.attribute, in: capabilities.numericAttributes, "a number filter")
                parts.append(.compare(number.attribute, number.comparison, .number(number.value)))
            case .person(let person):
                let attribute = person.attribute
                try check(attribute, in: capabilities.peopleAttributes, "a person filter")
                let lowered = person.name.lowercased()
                if ["me", "i", "my", "myself"].contains(lowered), let contactResolver {
                    let identity = contactResolver.userIdentity().allValues
                    parts.append(.or(identity.map { .match(attribute, pattern: $0, kind: .exact, options: [.caseInsensitive]) }))
                } else {
                    parts.append(.match(attribute, pattern: person.name, kind: .contains, options: [.caseInsensitive, .diacriticInsensitive]))
                }
            }
        }
        if includeDates, let dates = request.dates {
            try check(dates.attribute, in: capabilities.dateAttributes, "a date range")
            let from = try dates.from.period(now: now, timeZone: source.index.timeZone)
            let to = try (dates.to ?? dates.from).period(now: now, timeZone: source.index.timeZone)
            parts.append(.inRange(dates.attribute, lower: .date(from.start), upper: .date(to.end)))
        }
        for condition in request.added { parts.append(try condition.predicate(timeZone: source.index.timeZone)) }
        if let contentType = request.contentType { parts.append(.contentType(contentType)) }
        if meaning, let question, wordsSearch != .fullText, !request.terms.isEmpty, source.index.embedder != nil, sortOrder == [.relevance] {
            parts.append(.meaning(question))
        }
        return parts.isEmpty ? .all : parts.count == 1 ? parts[0] : .and(parts)
    }

    func check(_ attribute: SearchableItemAttribute, in allowed: [SearchableItemAttribute], _ what: String) throws(SearchToolError) {
        guard allowed.contains(attribute) else {
            throw .invalidQuery("\(what) cannot use \(attribute.rawValue); it can use \(allowed.map(\.rawValue).joined(separator: ", "))")
        }
    }

    var sortOrder: [SearchSortOrder] {
        if case .attribute(let attribute, _) = request.sort, !(capabilities.numericAttributes + capabilities.dateAttributes).contains(attribute) {
            return [.relevance]
        }
        return [request.sort]
    }

    func limit(for source: ResolvedSource) -> Int {
        let wanted = request.limit ?? Self.defaultLimit
        return source.maximumResultCount.map { min($0, wanted) } ?? wanted
    }

    /// The top results of every source (hydrated when the delegate holds attributes the index
    /// does not), merged best first, and how many items matched in all the sources.
    private func search(_ predicates: [QueryPredicate], anyTerm: Bool = false) async throws -> Found {
        var ranked: [Ranked] = []
        var passages: [String: PassageMatch] = [:]
        var nearInMeaningOnly = Set<String>()
        var notes: [String] = []
        var matched = 0
        for (number, (source, predicate)) in zip(sources, predicates).enumerated() {
            let page = try await source.index.searchCountingFoundItems(SearchQuery(predicate, sort: sortOrder, limit: limit(for: source),
                                                                                   fetchAttributes: source.fetchAttributes,
                                                                                   snippetLength: snippetLength, wordsSearch: wordsSearch))
            matched += page.foundItemCount
            let hits = Self.pageShown(page.hits, anyTerm: anyTerm)
            nearInMeaningOnly.formUnion(hits.filter(\.isNearInMeaningOnly).map(\.item.uniqueIdentifier))
            for hit in hits { if let passage = hit.passage { passages[hit.item.uniqueIdentifier] = passage } }
            let hydrated = await hydrate(hits.map(\.item), from: source, keeping: source.fetchAttributes)
            notes += hydrated.notes
            let scores = Dictionary(hits.map { ($0.item.uniqueIdentifier, $0.score) }, uniquingKeysWith: { first, _ in first })
            ranked += hydrated.items.enumerated().map {
                Ranked(item: $0.element, score: scores[$0.element.uniqueIdentifier] ?? nil, position: number * 10_000 + $0.offset)
            }
        }
        if sources.count > 1, case .relevance = sortOrder.first {
            ranked.sort { ($0.score ?? -.infinity, -$0.position) > ($1.score ?? -.infinity, -$1.position) }
        }
        let cap = request.limit ?? Self.defaultLimit
        let items = ranked.prefix(sources.count > 1 ? cap : ranked.count).map(\.item)
        let kept = Set(items.map(\.uniqueIdentifier))
        return Found(items: items, passages: passages.filter { kept.contains($0.key) }, nearInMeaningOnly: nearInMeaningOnly.intersection(kept),
                     matched: matched, notes: notes)
    }

    /// The page a hybrid search shows: the results that hold the words, in their fused order,
    /// or when none does, those nearest in meaning. A small model quotes whatever it is shown,
    /// and two notes near in meaning under the one that holds the answer made SmolLM2 quote them
    /// (the trail samples' answer coverage fell from 32.7% with full text to 8.8% with every
    /// result by meaning shown, and to 17.2% with two; with the evidence ranked by the question,
    /// from 67.8% to 58.6% with every one shown). When the search fell back to any of the
    /// terms (`anyTerm`: no item holds them all), holding one is weak evidence, so a result
    /// found by meaning alone is shown too when it is as near the question as a result that
    /// holds a word: "water features" in California finds the note with a waterfall beside the
    /// ones that say "water".
    static func pageShown(_ hits: [SearchHit], anyTerm: Bool) -> [SearchHit] {
        let holding = hits.filter { !$0.isNearInMeaningOnly }
        guard !holding.isEmpty else { return hits }
        guard anyTerm, let bar = holding.compactMap(\.nearness).min() else { return holding }
        return hits.filter { !$0.isNearInMeaningOnly || ($0.nearness ?? -.infinity) >= bar }
    }

    /// Lays the delegate's items over the index's when some fetched attribute is missing.
    private func hydrate(_ items: [SearchableItem], from source: ResolvedSource,
                         keeping attributes: [SearchableItemAttribute]) async -> Hydrated {
        let missing = items.filter { item in attributes.contains { item.attributeSet[$0] == nil } }
        guard !missing.isEmpty, let delegate = source.delegate else { return Hydrated(items: items, notes: []) }
        guard let hydrated = await hydrator.items(for: missing.map(\.uniqueIdentifier), from: delegate) else {
            return Hydrated(items: items, notes: ["The app did not answer within \(hydrator.timeout); showing what the index holds."])
        }
        let missingIDs = Set(missing.map(\.uniqueIdentifier))
        var result: [SearchableItem] = []
        var dropped = 0
        for item in items {
            guard missingIDs.contains(item.uniqueIdentifier) else { result.append(item); continue }
            guard let fresh = hydrated[item.uniqueIdentifier] else { dropped += 1; continue }
            var merged = Hydrator.merge(item, with: fresh)
            merged.attributeSet = merged.attributeSet.restricted(to: Set(attributes))
            result.append(merged)
        }
        return Hydrated(items: result, notes: dropped == 0 ? [] : ["\(dropped) items were dropped: the app no longer has them."])
    }
}
