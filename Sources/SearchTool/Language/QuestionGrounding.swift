import Foundation
import SearchIndex

/// What the question itself states about the items it wants, read against what this index
/// holds: the values of its categorical attributes the question names ("California" is a
/// `stateOrProvince` here, not a word), a year, a number after a rating word ("rated 5"), and
/// whether it names a time at all or asks a count, a grouping or a statistic.
///
/// The pipeline uses it both ways (issue 52 item 3, issue 47 item 3): a value the question
/// names narrows the search whatever query the model wrote, and a condition the model added
/// with no ground in the question (a date range for a question naming no time, a filter on a
/// value it never names, a count it never asked) is what a search that found nothing gives up
/// first. Only what the question names counts as ground: the model's query is never trusted
/// for that, since a small model copies whatever the schema offers.
struct QuestionGrounding: Sendable, Hashable {
    /// What the index holds that a question can name, read once per tool.
    struct IndexFacts: Sendable, Hashable {
        /// Categorical attributes (their values repeat across items) with their few values.
        /// Single-valued ones narrow; list attributes (keywords) only ground a model's filter,
        /// since a list's value is one tag among several and the text may say it without it.
        var values: [SearchableItemAttribute: [String]] = [:]
        /// The attributes of `values` that hold lists.
        var listAttributes: Set<SearchableItemAttribute> = []
        /// The date attribute a named year applies to, when the index offers exactly one.
        var yearAttribute: SearchableItemAttribute?
        /// The index holds `rating` numbers, and these are its values.
        var ratings: [Double] = []
        /// The number attributes items hold (custom ones included), which a question may ask
        /// an average or a total of.
        var numberAttributes: [SearchableItemAttribute] = []
        /// The words that name what kind of thing the items are: their domains' names
        /// (`trails`, the last part of `com.example.notes`), singular and plural.
        var kindWords: Set<String> = []

        /// Adds the words of a domain's name (its last dotted part) to `kindWords`.
        mutating func addKind(ofDomain domain: String) {
            let name = domain.split(separator: ".").last.map(String.init) ?? domain
            for word in QuestionGrounding.tokens(name) where word.count > 2 && Double(word) == nil {
                let singular = QuestionVocabulary.singular(of: word) ?? word
                kindWords.formUnion([singular, singular + "s"])
            }
        }
    }

    /// A condition the question states, as a filter the pipeline adds when the query lacks it.
    enum Condition: Sendable, Hashable {
        /// `attribute` is one of `values` (several when the question names several).
        case value(SearchableItemAttribute, [String])
        /// A number attribute compared with a value the question names.
        case number(SearchableItemAttribute, ComparisonOperator, Double)
        /// A date attribute within one calendar year.
        case year(SearchableItemAttribute, Int)
    }

    /// The conditions the question states, in question order; none for a question that asks
    /// several things (`isCompound`).
    var conditions: [Condition] = []
    /// Lower-cased values of any categorical attribute (lists included) the question names.
    var namedValues: Set<String> = []
    /// The question names a time: a year, a date, a month, a weekday or a period ("last week").
    var namesTime = false
    /// The question asks how many, how much, per what, or for a superlative or an average.
    var asksAggregate = false
    /// An average or a total the question asks of one number attribute it names by a word of
    /// the attribute's name ("the average distance" of `distanceKilometers`, "kilometers in
    /// total"); nil when it names none, several, or asks several things.
    var statistic: AskedStatistic?
    /// The question asks how many items ("how many trails", "the number of my files": the
    /// items' kind after it), not per group ("in each state"), and asks nothing else: a count of
    /// the matches answers it. "How many check steps" asks a number inside an item.
    var asksCount = false
    /// The question asks which items, several ("Which trails did I hike with Priya?": the plural
    /// after "which" or "what" names what it wants), and nothing else: the titles of the matches
    /// answer it. "On which trip did I see otters?" asks for the one that says so.
    var asksWhichItems = false
    /// False for `.none`: with no question there is no ground to judge a query by, so
    /// nothing is added and nothing given up.
    private(set) var knowsQuestion = false
    /// The question's words, lower-cased, in order (for numbers and names a query uses).
    private var words: [String] = []
    /// The question's words a search may use (`QuestionVocabulary.words`, without the words
    /// that name the items' kind): what a search whose own terms no item holds falls back on.
    private(set) var searchWords: [String] = []
    /// The words that name what kind of thing every item is (`IndexFacts.kindWords`): as a
    /// search term one says nothing of the item wanted ("trails" among trail notes).
    private(set) var kindWords: Set<String> = []

    /// No question known: a query runs as written.
    static let none = QuestionGrounding()

    private init() {}

    init(question: String, facts: IndexFacts) {
        knowsQuestion = true
        words = Self.tokens(question)
        kindWords = facts.kindWords
        searchWords = QuestionVocabulary.words(in: question).filter { !facts.kindWords.contains($0) }
        let text = " " + words.joined(separator: " ") + " "
        for (attribute, values) in facts.values.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let named = values.filter { value in
                let phrase = Self.tokens(value).joined(separator: " ")
                return !phrase.isEmpty && Double(phrase) == nil && text.contains(" \(phrase) ")
            }
            guard !named.isEmpty else { continue }
            namedValues.formUnion(named.map { $0.lowercased() })
            if !facts.listAttributes.contains(attribute) { conditions.append(.value(attribute, named)) }
        }
        if !facts.ratings.isEmpty, let rating = ratingCondition(values: facts.ratings) { conditions.append(rating) }
        let years = words.compactMap { word in Int(word).flatMap { (1900...2199).contains($0) ? $0 : nil } }
        if let attribute = facts.yearAttribute, years.count == 1, let year = years.first { conditions.append(.year(attribute, year)) }
        namesTime = !years.isEmpty || words.contains(where: Self.timeWords.contains)
            || question.range(of: #"\d{4}-\d{2}-\d{2}"#, options: .regularExpression) != nil
        asksAggregate = words.contains(where: Self.aggregateWords.contains)
            || text.contains(" how many ") || text.contains(" how much ") || text.contains(" number of ")
        asksCount = countsItems(ofKinds: facts.kindWords) && !words.contains("each") && !words.contains("per") && !Self.isCompound(question)
        statistic = askedStatistic(of: facts.numberAttributes)
        asksWhichItems = QuestionVocabulary.asksForSeveral(question) && !asksAggregate && !Self.isCompound(question)
        // "Which trails have waterfalls, and how many are in Utah?" names Utah for one of its
        // searches only, and which search serves which part is the model's choice: a value it
        // names still grounds the model's filters, but is added to none.
        if Self.isCompound(question) { conditions = []; statistic = nil }
    }

    /// Whether "how many" or "number of" is followed by a word of `kinds`, past the words
    /// that only point ("how many of my trails").
    private func countsItems(ofKinds kinds: Set<String>) -> Bool {
        let pointing: Set<String> = ["of", "my", "the", "our", "your", "these", "those", "all", "different"]
        for (position, word) in words.enumerated() where position > 0 {
            let opens = (word == "many" && words[position - 1] == "how") || (word == "of" && words[position - 1] == "number")
            guard opens, let noun = words[(position + 1)...].first(where: { !pointing.contains($0) }) else { continue }
            if kinds.contains(noun) { return true }
        }
        return false
    }

    /// An average or a total of one number attribute.
    struct AskedStatistic: Sendable, Hashable {
        var function: StatisticFunction
        var attribute: SearchableItemAttribute
    }

    /// The statistic the question's words ask, when one function word and the name of exactly
    /// one of `attributes` appear: a word of four letters or more of the attribute's name split
    /// at its capitals (`distanceKilometers`: "distance", "kilometers"), or that word with an s.
    private func askedStatistic(of attributes: [SearchableItemAttribute]) -> AskedStatistic? {
        let functions = Set(words.compactMap { Self.statisticWords[$0] })
        guard functions.count == 1, let function = functions.first else { return nil }
        let said = Set(words)
        let named = attributes.filter { attribute in
            Self.nameWords(attribute.rawValue).contains { said.contains($0) || said.contains($0 + "s") }
        }
        guard named.count == 1, let attribute = named.first else { return nil }
        return AskedStatistic(function: function, attribute: attribute)
    }

    /// A camel-case name's words of four letters or more, lower-cased.
    private static func nameWords(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isUppercase, !current.isEmpty { words.append(current); current = "" }
            current.append(character)
        }
        words.append(current)
        return words.map { $0.lowercased() }.filter { $0.count >= 4 && $0.allSatisfy(\.isLetter) }
    }

    /// Whether the question asks several things: clauses joined after a comma or semicolon
    /// ("…, and how many…"), or more than one question mark.
    static func isCompound(_ question: String) -> Bool {
        let lowered = question.lowercased()
        return lowered.contains(", and ") || lowered.contains("; ") || lowered.filter { $0 == "?" }.count > 1
    }

    // MARK: What a model's query is grounded by

    /// A model's filter is grounded when the question names its value (or, for a person, the
    /// name or the user).
    func grounds(_ filter: SearchRequest.Filter) -> Bool {
        switch filter {
        case .text(let text): return namedValues.contains(text.value.lowercased()) || names(text.value)
        case .number(let number): return names(number.value)
        case .person(let person):
            return Self.selfWords.contains(person.name.lowercased()) || names(person.name)
        }
    }

    /// A model's stage is grounded unless it reduces the items to numbers (count, groupBy,
    /// statistic) for a question that asks for no number. An app's stage is always its own.
    func grounds(_ stage: SearchRequest.Stage) -> Bool {
        !stage.reducesToNumbers || asksAggregate
    }

    /// Whether the question's words hold this text's words in a row.
    private func names(_ value: String) -> Bool {
        let phrase = Self.tokens(value)
        guard !phrase.isEmpty, phrase.count <= words.count else { return false }
        return (0...(words.count - phrase.count)).contains { Array(words[$0..<($0 + phrase.count)]) == phrase }
    }

    private func names(_ number: Double) -> Bool {
        words.contains { Double($0) == number }
    }

    // MARK: Reading the question

    /// A number at most two words after a rating word ("rated 5", "rating of 4", "rated
    /// difficulty 3 or higher"), among the index's ratings unless bounded ("or higher",
    /// "at least", "or less", "at most").
    private func ratingCondition(values: [Double]) -> Condition? {
        for (position, word) in words.enumerated() where Self.ratingWords.contains(word) {
            for offset in 1...3 where words.indices.contains(position + offset) {
                guard let number = Double(words[position + offset]) else { continue }
                let before = words[max(0, position - 2)..<position].joined(separator: " ")
                let after = words[(position + offset + 1)..<min(words.count, position + offset + 3)].joined(separator: " ")
                let comparison: ComparisonOperator
                if ["or higher", "or more", "or above", "or better"].contains(after) || before.hasSuffix("at least") {
                    comparison = .greaterOrEqual
                } else if ["or lower", "or less", "or below", "or fewer"].contains(after) || before.hasSuffix("at most") {
                    comparison = .lessOrEqual
                } else if values.contains(number) {
                    comparison = .equal
                } else {
                    continue
                }
                return .number(.rating, comparison, number)
            }
        }
        return nil
    }

    /// Lower-cased words and numbers (decimals kept whole).
    static func tokens(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == ".") })
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ".")) }.filter { !$0.isEmpty }
    }

    static let ratingWords: Set<String> = ["rated", "rating", "ratings", "star", "stars", "scored"]
    /// The words that ask an average or a total.
    static let statisticWords: [String: StatisticFunction] = [
        "average": .average, "mean": .average, "avg": .average, "total": .sum, "sum": .sum, "altogether": .sum, "combined": .sum,
    ]
    static let selfWords: Set<String> = ["me", "i", "my", "myself"]
    /// Words that name a time. "May", "spring" and "fall" are left out: as a verb, a water
    /// source and a waterfall they say no time more often than they do.
    static let timeWords: Set<String> = [
        "today", "yesterday", "tonight", "tomorrow", "week", "weeks", "weekend", "month", "months", "year", "years", "ago",
        "recent", "recently", "lately", "january", "february", "march", "april", "june", "july", "august", "september",
        "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "summer", "autumn", "winter",
    ]
    static let aggregateWords: Set<String> = [
        "count", "each", "per", "average", "mean", "median", "total", "sum", "most", "least", "fewest", "minimum", "maximum",
        "longest", "shortest", "highest", "lowest", "hardest", "easiest", "biggest", "smallest", "largest", "farthest",
        "furthest", "oldest", "newest", "earliest", "latest", "steepest", "fastest", "slowest",
    ]
}
