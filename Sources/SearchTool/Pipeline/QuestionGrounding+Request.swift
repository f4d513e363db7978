import Foundation
import SearchIndex

/// How a `QuestionGrounding` changes a model's request: what it adds before the search, and
/// what a search that found nothing may give up, in order. Every change comes with the
/// `QueryAdjustment` that says it; a condition the question grounds is never given up.
extension QuestionGrounding {
    /// A request and the adjustments that made it from the model's.
    struct Adjusted: Sendable {
        var request: SearchRequest
        var adjustments: [QueryAdjustment]
    }

    /// The model's request with every condition the question states and the query lacks,
    /// without the terms that are those conditions' values (a state searched as a word finds
    /// the notes that mention it, not the items in it), and without the terms that name the
    /// items' kind (`withoutKindTerms`). A date range that names no date ("1234-12-32") for a
    /// question that names no time is left out: the search could not run with it, and the
    /// question gives it no ground.
    func narrowed(_ request: SearchRequest) -> Adjusted {
        var request = request
        var adjustments: [QueryAdjustment] = []
        if knowsQuestion, !namesTime, let dates = request.dates, !dates.namesDates {
            request.dates = nil
            adjustments.append(QueryAdjustment(kind: .relaxed, condition: dates.description, reason: "it names no date, and the question names no time"))
        }
        for condition in conditions where !request.holds(condition, groundedBy: self) {
            request.added.append(condition)
            adjustments.append(QueryAdjustment(kind: .added, condition: condition.description, reason: "the question names it"))
        }
        var attributes: [String: SearchableItemAttribute] = [:]
        for condition in request.added {
            if case .value(let attribute, let values) = condition { for value in values { attributes[Self.phrase(value)] = attribute } }
        }
        for filter in request.filters where grounds(filter) {
            if case .text(let text) = filter { attributes[Self.phrase(text.value)] = text.attribute }
        }
        let (asValues, terms) = request.terms.partitioned { attributes[Self.phrase($0)] != nil }
        for term in asValues {
            let attribute = attributes[Self.phrase(term)]?.rawValue ?? ""
            adjustments.append(QueryAdjustment(kind: .readAsValue, condition: "the term \"\(term)\"",
                                               reason: "it is a value of \(attribute), not a word the items must contain"))
        }
        request.terms = terms
        return withoutKindTerms(Adjusted(request: request, adjustments: adjustments))
    }

    /// The request without the terms that name what kind of thing every item is: "trails"
    /// among trail notes is held by most of them whatever they say, so SmolLM2's search of
    /// "trails" for "Which trails did I hike with Priya?" ranked ten notes by that word alone.
    /// When no term, condition or date range is left, the question's other words are searched
    /// in their place; when it has none ("How many trails are there?"), every item is.
    private func withoutKindTerms(_ adjusted: Adjusted) -> Adjusted {
        var adjusted = adjusted
        let (kinds, others) = adjusted.request.terms.uniqued().partitioned { kindWords.contains($0.lowercased()) }
        guard !kinds.isEmpty else { return adjusted }
        let request = adjusted.request
        let narrowsOtherwise = !others.isEmpty || !request.added.isEmpty || !request.filters.isEmpty || request.dates != nil
        let words = searchWords.filter { !Self.timeWords.contains($0) }
        if narrowsOtherwise || words.isEmpty {
            adjusted.request.terms = others
            adjusted.adjustments += kinds.map { QueryAdjustment(kind: .readAsKind, condition: "the term \"\($0)\"",
                                                                reason: "it names what every item here is, not a word an item must contain") }
        } else {
            adjusted.request.terms = words
            adjusted.adjustments.append(QueryAdjustment(kind: .replaced, condition: "terms \(Self.quoted(kinds))",
                                                        reason: "they name what every item here is; searched the question's words \(Self.quoted(words))"))
        }
        return adjusted
    }

    /// What a request that found nothing gives up, each step on top of the previous one: a
    /// date range for a question that names no time, then filters on values the question does
    /// not name. Each step also drops the stages that reduce the items to numbers for a
    /// question that asks for none (the over-specified query that found nothing was asking
    /// the wrong thing). Empty when nothing in the request lacks ground.
    func relaxations(of request: SearchRequest) -> [Adjusted] {
        guard knowsQuestion else { return [] }
        var steps: [Adjusted] = []
        var current = Adjusted(request: request, adjustments: [])
        if !namesTime, let dates = request.dates {
            current.request.dates = nil
            current.adjustments.append(QueryAdjustment(kind: .relaxed, condition: dates.description, reason: "the question names no time"))
            steps.append(current)
        }
        let (grounded, ungrounded) = current.request.filters.partitioned(by: grounds)
        if !ungrounded.isEmpty {
            current.request.filters = grounded
            for filter in ungrounded {
                current.adjustments.append(QueryAdjustment(kind: .relaxed, condition: filter.description, reason: "the question does not name \(filter.valueDescription)"))
            }
            steps.append(current)
        }
        return steps.map(droppingUngroundedStages)
    }

    /// The request without terms, for a question that asks a count, a grouping or a statistic
    /// of the items its conditions select, when no such item holds any of the terms: the words
    /// of "how many trails did I hike in California" name the kind of item, and the count is of
    /// the items in California. A question that asks for items keeps its terms ("which trails
    /// in Arizona have a waterfall" has no answer when none has one).
    func withoutTerms(_ request: SearchRequest) -> Adjusted? {
        guard knowsQuestion, asksAggregate, !request.terms.isEmpty, !request.added.isEmpty || request.filters.contains(where: grounds) else { return nil }
        var relaxed = request
        relaxed.terms = []
        return droppingUngroundedStages(Adjusted(request: relaxed, adjustments: [QueryAdjustment(
            kind: .relaxed, condition: "terms \(Self.quoted(request.terms))", reason: "no item that meets the question's conditions holds them")]))
    }

    /// The request searching the question's own words in place of its terms, for when no item
    /// holds them (the pipeline checks): a model that searched "allow" for "What does the zlib licence allow?" finds the
    /// licence by "zlib". The question's conditions and the model's grounded filters stay; the
    /// words go in as any-term (ranked by how rare each is). Nil when the question has no word
    /// the request did not already try, and when the terms only name a time ("month" for "this
    /// month"): a time written as a word is a missing date range, which other words do not
    /// replace. Time words are never among the replacements, for the same reason.
    func withQuestionWords(_ request: SearchRequest) -> Adjusted? {
        guard knowsQuestion, request.terms.contains(where: { !Self.timeWords.contains($0.lowercased()) }) else { return nil }
        let tried = Set(request.terms.map { $0.lowercased() })
        let fresh = searchWords.filter { !tried.contains($0) && !Self.timeWords.contains($0) }
        guard !fresh.isEmpty else { return nil }
        var replaced = request
        replaced.terms = fresh
        return Adjusted(request: replaced, adjustments: [QueryAdjustment(
            kind: .replaced, condition: "terms \(Self.quoted(request.terms))", reason: "no item holds them; searched the question's words \(Self.quoted(fresh))")])
    }

    /// Words as the adjustments list them: `"water", "features"`.
    private static func quoted(_ words: [String]) -> String { words.map { "\"\($0)\"" }.joined(separator: ", ") }

    /// A value's words, lower-cased, for comparing a term with it.
    private static func phrase(_ text: String) -> String { tokens(text).joined(separator: " ") }

    private func droppingUngroundedStages(_ adjusted: Adjusted) -> Adjusted {
        var adjusted = adjusted
        let (kept, dropped) = adjusted.request.stages.partitioned(by: grounds)
        adjusted.request.stages = kept
        for stage in dropped {
            adjusted.adjustments.append(QueryAdjustment(kind: .relaxed, condition: "the \(stage.name) stage", reason: "the question asks for no count, grouping or statistic"))
        }
        return adjusted
    }
}

extension QuestionGrounding.Condition: CustomStringConvertible {
    /// The condition as the query language spells it: `stateOrProvince is California`,
    /// `rating >= 3`, `contentCreationDate in 2025`.
    var description: String {
        switch self {
        case .value(let attribute, let values): "\(attribute.rawValue) \(FilterOperator.is) \(values.joined(separator: " or "))"
        case .number(let attribute, let comparison, let value):
            "\(attribute.rawValue) \(comparison.queryName) \(value.formatted(.number.grouping(.never)))"
        case .year(let attribute, let year): "\(attribute.rawValue) in \(year)"
        }
    }

    /// The condition as a predicate on `timeZone`'s calendar.
    func predicate(timeZone: TimeZone) throws(SearchToolError) -> QueryPredicate {
        switch self {
        case .value(let attribute, let values):
            let matches = values.map { QueryPredicate.match(attribute, pattern: $0, kind: .exact, options: [.caseInsensitive, .diacriticInsensitive]) }
            return matches.count == 1 ? matches[0] : .or(matches)
        case .number(let attribute, let comparison, let value):
            return .compare(attribute, comparison, .number(value))
        case .year(let attribute, let year):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            guard let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1)),
                  let next = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1)) else {
                throw .invalidQuery("the year \(year) is out of range")
            }
            return .inRange(attribute, lower: .date(start), upper: .date(next.addingTimeInterval(-0.001)))
        }
    }
}

extension SearchRequest {
    /// Whether the model's own query already states `condition` with ground in the question (a
    /// filter on the attribute whose value the question names, or any date range when the
    /// question names a year).
    func holds(_ condition: QuestionGrounding.Condition, groundedBy grounding: QuestionGrounding) -> Bool {
        switch condition {
        case .value(let attribute, _):
            filters.contains { if case .text(let text) = $0 { text.attribute == attribute && grounding.grounds($0) } else { false } }
        case .number(let attribute, _, _):
            filters.contains { if case .number(let number) = $0 { number.attribute == attribute && grounding.grounds($0) } else { false } }
        case .year:
            dates != nil
        }
    }
}

extension SearchRequest.Filter: CustomStringConvertible {
    /// The filter as the query language spells it (`stateOrProvince is Oregon`).
    var description: String {
        switch self {
        case .text(let text): "\(text.attribute.rawValue) \(text.exact ? FilterOperator.is : FilterOperator.contains) \(text.value)"
        case .number(let number): "\(number.attribute.rawValue) \(number.comparison.queryName) \(number.value.formatted(.number.grouping(.never)))"
        case .person(let person): "\(person.attribute.rawValue) \(FilterOperator.includes) \(person.name)"
        }
    }

    /// The value the filter names, quoted, for saying the question does not name it.
    var valueDescription: String {
        switch self {
        case .text(let text): "\"\(text.value)\""
        case .number(let number): number.value.formatted(.number.grouping(.never))
        case .person(let person): "\"\(person.name)\""
        }
    }
}

extension SearchRequest.DateRange: CustomStringConvertible {
    /// Whether both ends name a date or a period (`2024-02-30` does not).
    var namesDates: Bool {
        ([from] + (to.map { [$0] } ?? [])).allSatisfy { (try? $0.period(now: .now, timeZone: .gmt)) != nil }
    }

    /// `dates contentCreationDate 2023-01-01…2023-01-31`.
    var description: String {
        "dates \(attribute.rawValue) \(from.text)" + (to.map { "…\($0.text)" } ?? "")
    }
}

extension ComparisonOperator {
    /// The operator as a query writes it (`=`, not SQL's `==`).
    var queryName: String { self == .equal ? FilterOperator.equal.rawValue : rawValue }
}
