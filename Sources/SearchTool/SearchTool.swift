import Foundation
import LocalModel
import SearchIndex
import Synchronization

/// The retrieval engine as an ordinary tool (Apple's `SpotlightSearchTool`, `spotlight_search`
/// on the wire): the model writes a structured query, the index runs it and its stages inside
/// SQLite, and the model reads back exactly the fetched attributes.
///
/// ```swift
/// let tool = SearchTool(configuration: .init(
///     sources: [.index(IndexSource(index: index, fetchAttributes: [.title, .rating]))],
///     guide: .focused()))
/// let session = LanguageModelSession(model: model, tools: [tool, tool.fetchTool])
/// ```
///
/// Build one tool per question, as Apple's sample does: the tool's `searchResults` stream
/// carries that question's replies and finishes when the tool is released (or `finish()`).
public struct SearchTool: Tool {
    /// `{"query": {...}}`: one top-level argument, as Apple's evaluation expects.
    public struct Arguments: ConvertibleFromGeneratedContent, Sendable {
        public var query: GeneratedContent
        public init(_ content: GeneratedContent) throws {
            guard let query = content[.query] else { throw SearchToolError.invalidQuery("the arguments need a \"\(QueryKey.query)\" object") }
            self.query = query
        }
    }

    public let configuration: Configuration
    public let name: String
    public let description: String
    /// The open query schema: what the description shows and what every call is validated against.
    public let parameters: GenerationSchema
    /// True for the structured format (the schema goes into the prompt as JSON Schema, the
    /// layout tool-trained models know); false for the compact one, whose description carries
    /// the same schema as a sketch at a third of the tokens (`SchemaSketch`). The grammar is
    /// compiled from `parameters` either way.
    public let includesSchemaInInstructions: Bool
    private let engine: SearchEngine

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let capabilities = QueryCapabilities(configuration: configuration)
        let language = QueryLanguage(capabilities: capabilities)
        name = configuration.name
        description = language.toolDescription(fetchToolName: configuration.fetchToolName)
        parameters = language.arguments()
        includesSchemaInInstructions = configuration.guide.format == .structured
        engine = SearchEngine(configuration: configuration, capabilities: capabilities, language: language)
    }

    /// The companion tool that reads one item in full, over the same sources. Its `id`
    /// argument is limited, per round, to the identifiers this search tool has returned.
    public var fetchTool: FetchItemTool {
        FetchItemTool(name: configuration.fetchToolName, searchToolName: name, resolver: engine.resolver,
                      hydrator: engine.hydrator, format: configuration.guide.format,
                      maximumResponseSize: configuration.maximumResponseSize, shownIdentifiers: engine.shownIdentifiers)
    }

    /// Orders what this tool's searches and fetches showed by the user's question before the
    /// answer round (`LanguageModelSession(evidenceRanker:)`), through the index's words and
    /// meaning; a count comes first when the question asks how many.
    public var evidenceRanker: any EvidenceRanker { QuestionEvidenceRanker(resolver: engine.resolver) }

    /// Every reply of every query this tool runs, in order (Apple's `searchResults`).
    public var searchResults: AsyncStream<SearchReply> { engine.channel.stream }

    /// Ends `searchResults` now (it also ends when the tool is released).
    public func finish() { engine.channel.finish() }

    /// The schema for this request (when `restrictsTermsToQuestion`): search terms limited to
    /// the question's words and the index's few-valued attribute values, and custom stages'
    /// free string arguments limited to the question's words and phrases (see
    /// `CustomStage.argumentSchema`), so a small model can only search for, and pass on, what
    /// was asked. The session asks before every round; the instructions keep the open schema.
    public func parameters(for prompt: Prompt) async -> GenerationSchema {
        guard configuration.restrictsTermsToQuestion else { return parameters }
        engine.question.withLock { $0 = prompt.text }
        return engine.language.arguments(vocabulary: await engine.vocabulary(for: prompt.text))
    }

    /// The text the model reads: `result(for:)` without the replies.
    public func call(arguments: Arguments) async throws -> String {
        try await result(for: arguments).text
    }

    /// The text the model reads and, beside it in the call's transcript entry, every
    /// `SearchReply` of the call, the ones `searchResults` carries (read them back with
    /// `toolOutput.structuredContents(as: SearchReply.self)`).
    public func result(for arguments: Arguments) async throws -> ToolResult {
        try await engine.run(arguments.query)
    }
}

/// The state one tool's copies share: sources, the result channel, cached attribute values.
final class SearchEngine: Sendable {
    let configuration: SearchTool.Configuration
    let capabilities: QueryCapabilities
    let language: QueryLanguage
    let resolver: SourceResolver
    let hydrator: Hydrator
    let channel = ReplyChannel()
    /// Identifiers of the items shown to the model so far, newest last.
    let shownIdentifiers = ShownIdentifiers()
    /// The question the terms are limited to (see `parameters(for:)`), which hybrid searches
    /// rank by the meaning of (`SearchPipeline.question`).
    let question = Mutex<String?>(nil)
    private let fewValues = Mutex<[SearchableItemAttribute: [String]]?>(nil)
    private let groundingFacts = Mutex<QuestionGrounding.IndexFacts?>(nil)
    static let fewValuesLimit = 30
    static let maximumVocabulary = 80

    init(configuration: SearchTool.Configuration, capabilities: QueryCapabilities, language: QueryLanguage) {
        self.configuration = configuration
        self.capabilities = capabilities
        self.language = language
        resolver = SourceResolver(sources: configuration.sources)
        hydrator = Hydrator(timeout: configuration.hydrationTimeout)
    }

    /// The question's words plus the few-valued attributes' values.
    func vocabulary(for question: String) async -> QueryLanguage.Vocabulary {
        let values = await attributeValues()
        var seen = Set<String>()
        var terms = QuestionVocabulary.words(in: question).filter { seen.insert($0).inserted }
        for value in values.values.joined() where value.count <= QueryLanguage.maximumTermLength {
            if seen.insert(value.lowercased()).inserted { terms.append(value.lowercased()) }
        }
        // A stage's name and its parts ("elevation_gain": elevation, gain) say which stage to
        // run, not what to run it on; offered as arguments, the 135M model copied them first.
        let stageNames = Set(capabilities.customStages.flatMap { stage in
            [stage.name.lowercased()] + stage.name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        })
        return QueryLanguage.Vocabulary(terms: Array(terms.prefix(Self.maximumVocabulary)), values: values,
                                        phrases: QuestionVocabulary.phrases(in: question, excluding: stageNames))
    }

    /// Values of string attributes that have at most `fewValuesLimit` distinct ones (states,
    /// keywords), read once per tool. An index that cannot answer offers none.
    private func attributeValues() async -> [SearchableItemAttribute: [String]] {
        if let cached = fewValues.withLock({ $0 }) { return cached }
        var result: [SearchableItemAttribute: [String]] = [:]
        if let sources = try? await resolver.sources() {
            for attribute in capabilities.stringAttributes {
                var values: [String] = []
                var complete = true
                for source in sources {
                    guard let distinct = try? await source.index.distinctValues(of: attribute, limit: Self.fewValuesLimit) else { continue }
                    complete = complete && distinct.isComplete
                    values += distinct.values.compactMap { $0.value.stringValue }
                }
                values = values.uniqued()
                if complete, !values.isEmpty, values.count <= Self.fewValuesLimit { result[attribute] = values }
            }
        }
        fewValues.withLock { $0 = result }
        return result
    }

    /// What the question grounds in these sources' indexes; `.none` without a question.
    func grounding(for question: String?) async -> QuestionGrounding {
        guard let question else { return .none }
        return QuestionGrounding(question: question, facts: await indexFacts())
    }

    /// The facts a question is grounded against, read once per tool from every source's index:
    /// the items' domains (what kind of thing they are), categorical attributes — string
    /// attributes with at most `fewValuesLimit` values that repeat (on average on two items or
    /// more, so titles and places named once are not categories) —, the number attributes and
    /// the ratings, and the one date attribute the guide offers that items hold. Read from the
    /// index, not the guide: a focused guide offers no attribute filters, and the question's
    /// "California" is still a state. An index that cannot answer grounds nothing.
    private func indexFacts() async -> QuestionGrounding.IndexFacts {
        if let cached = groundingFacts.withLock({ $0 }) { return cached }
        var facts = QuestionGrounding.IndexFacts()
        var heldDates = Set<SearchableItemAttribute>()
        for source in (try? await resolver.sources()) ?? [] {
            for domain in (try? await source.index.domainIdentifiers()) ?? [] { facts.addKind(ofDomain: domain) }
            guard let catalogue = try? await source.index.attributeCatalogue() else { continue }
            for summary in catalogue where summary.itemCount > 0 {
                switch summary.kind {
                case .string, .strings:
                    guard summary.attribute != .textContent,
                          let distinct = try? await source.index.distinctValues(of: summary.attribute, limit: Self.fewValuesLimit),
                          distinct.isComplete, !distinct.values.isEmpty,
                          distinct.values.reduce(0, { $0 + $1.count }) >= 2 * distinct.values.count else { continue }
                    let values = distinct.values.compactMap { $0.value.stringValue }
                    facts.values[summary.attribute] = ((facts.values[summary.attribute] ?? []) + values).uniqued()
                    if summary.kind == .strings { facts.listAttributes.insert(summary.attribute) }
                case .number:
                    facts.numberAttributes = (facts.numberAttributes + [summary.attribute]).uniqued()
                    guard summary.attribute == .rating else { continue }
                    let distinct = try? await source.index.distinctValues(of: .rating, limit: Self.fewValuesLimit)
                    facts.ratings = (facts.ratings + (distinct?.values.compactMap { $0.value.numberValue } ?? [])).uniqued()
                case .date:
                    heldDates.insert(summary.attribute)
                }
            }
        }
        let offered = capabilities.dateAttributes.filter(heldDates.contains)
        facts.yearAttribute = offered.count == 1 ? offered.first : nil
        groundingFacts.withLock { $0 = facts }
        return facts
    }

    /// Runs one tool call: replies go to `searchResults` and beside the text, which goes to the model.
    func run(_ query: GeneratedContent) async throws -> ToolResult {
        let request = try SearchRequest(query, customStages: capabilities.customStages)
        let sources = try await resolver.sources()
        let question = self.question.withLock { $0 }
        let grounding = await grounding(for: question)
        let formatter = ResultFormatter(format: configuration.guide.format, maximumSize: configuration.maximumResponseSize,
                                        attributeOrder: capabilities.fetchAttributes,
                                        timeZone: sources.first?.index.timeZone ?? .current)
        let pipeline = SearchPipeline(request: request, sources: sources, capabilities: capabilities,
                                      contactResolver: configuration.contactResolver, hydrator: hydrator, formatter: formatter, now: configuration.now(),
                                      snippetLength: configuration.snippetLength, wordsSearch: configuration.wordsSearch,
                                      question: question, grounding: grounding)
        let token = channel.makeQueryToken()
        let coverage = try await Self.vectorCoverage(of: sources)
        var replies: [SearchReply] = []
        let outcome = try await pipeline.run { data, stage, isLast, found, adjustments in
            let shown = Set(data.items.map(\.uniqueIdentifier))
            let reply = SearchReply(content: data, label: request.label, status: isLast ? .complete : .partial,
                                    queryToken: token, stageToken: SearchReply.StageToken(query: token, index: stage),
                                    passages: found.filter { shown.contains($0.key) }, adjustments: adjustments, vectorCoverage: coverage)
            channel.send(reply)
            replies.append(reply)
        }
        let shown = outcome.items.count
        shownIdentifiers.record(outcome.items.map(\.uniqueIdentifier).filter { $0.count <= FetchItemTool.maximumIdentifierLength },
                                passages: outcome.passages)
        guard let final = outcome.final else {
            let nearInMeaningOnly = outcome.items.filter { outcome.nearInMeaningOnly.contains($0.uniqueIdentifier) }.count
            let asksForItems = outcome.matched > 0 && (grounding.asksCount || grounding.asksWhichItems)
            let named = asksForItems ? Self.matchCount(outcome.matched, naming: outcome.items, nearInMeaningOnly: nearInMeaningOnly) : nil
            let count = named ?? (grounding.asksCount && outcome.matched > 0 ? Self.matchCount(outcome.matched) : nil)
            let statistic = outcome.askedStatistic.map { formatter.resultSentences(.statistic($0)) } ?? []
            let header = Self.header(matched: outcome.matched, shown: shown, nearInMeaningOnly: nearInMeaningOnly,
                                     count: count, namesNearInMeaning: named != nil) + statistic.map { " " + $0 }.joined()
            let text = formatter.items(outcome.items, header: header, notes: outcome.notes, passages: outcome.passages)
            return ToolResult(text: text, structuredContent: replies,
                              sources: ShownSources.results(outcome.items, in: text, attributes: capabilities.fetchAttributes,
                                                            passages: outcome.passages) + ShownSources.toolResult((count.map { [$0] } ?? []) + statistic, in: text, answersQuestion: true))
        }
        let text = formatter.data(final, header: "\(Self.matchCount(outcome.matched)). \(request.stages.last?.name ?? "") result:",
                                  notes: outcome.notes, passages: outcome.passages)
        return ToolResult(text: text, structuredContent: replies,
                          sources: ShownSources.results(of: final, in: text, attributes: capabilities.fetchAttributes, passages: outcome.passages,
                                                        formatter: formatter))
    }

    /// How many items of the sources searched by meaning have vectors, summed; nil when none
    /// has an embedder.
    static func vectorCoverage(of sources: [ResolvedSource]) async throws -> VectorCoverage? {
        var total: VectorCoverage?
        for source in sources where source.index.embedder != nil {
            let coverage = try await source.index.vectorCoverage()
            total = VectorCoverage(itemCount: (total?.itemCount ?? 0) + coverage.itemCount,
                                   embeddedItemCount: (total?.embeddedItemCount ?? 0) + coverage.embeddedItemCount,
                                   vectorCount: (total?.vectorCount ?? 0) + coverage.vectorCount)
        }
        return total
    }

    /// How many items matched, as the headers say it (`4 items matched`).
    static func matchCount(_ matched: Int) -> String { matched == 1 ? "1 item matched" : "\(matched) items matched" }

    /// How many items matched with the titles of every item shown, when those are all the
    /// matches and the items found by meaning alone beside them, and all have a title
    /// (`2 items matched: Mist Trail, Lands End`; `2 items matched, 1 more near in meaning: …`):
    /// the answer to "how many" with the names a person asking it wants next, and to "which".
    /// Nil otherwise.
    static func matchCount(_ matched: Int, naming items: [SearchableItem], nearInMeaningOnly: Int) -> String? {
        let titles = items.compactMap { $0.attributeSet.title.map(TextFraming.singleLine) }
        guard items.count == matched + nearInMeaningOnly, titles.count == items.count else { return nil }
        let near = nearInMeaningOnly > 0 ? ", \(nearInMeaningOnly) more near in meaning" : ""
        return matchCount(matched) + near + ": " + titles.joined(separator: ", ")
    }

    /// The first line of a search's items: how many items hold the words and how many are
    /// shown, saying which were found by meaning alone (they do not hold the words, and the
    /// count does not include them); `count`, when the question asks how many, says the
    /// matches in place of the bare number (with `namesNearInMeaning`, it says those found by
    /// meaning alone too).
    static func header(matched: Int, shown: Int, nearInMeaningOnly: Int, count: String? = nil, namesNearInMeaning: Bool = false) -> String {
        if matched == 0 && nearInMeaningOnly == 0 { return "No items matched. Try other words or fewer conditions." }
        if matched == 0 { return "No item holds these words; the \(shown) shown are the nearest in meaning." }
        var header = "\(count ?? matchCount(matched)); \(shown) shown."
        if nearInMeaningOnly > 0 && !namesNearInMeaning {
            header += " \(nearInMeaningOnly) of them \(nearInMeaningOnly == 1 ? "is" : "are") near in meaning, without the words."
        }
        if shown - nearInMeaningOnly < matched { header += " Raise limit or add a stage to see more." }
        return header
    }
}

/// The identifiers a search tool has shown the model, which are the only ones worth fetching
/// (a small model asked for an id otherwise writes a run of digits), and the passage each
/// showed, which a fetch of a long item starts from.
final class ShownIdentifiers: Sendable {
    private struct State {
        var identifiers: [String] = []
        var passages: [String: Int] = [:]
    }
    private let state = Mutex(State())
    static let limit = 60

    func record(_ new: [String], passages: [String: PassageMatch] = [:]) {
        state.withLock { state in
            state.identifiers.removeAll { new.contains($0) }
            state.identifiers += new
            for identifier in new { state.passages[identifier] = passages[identifier]?.passage.index }
            if state.identifiers.count > Self.limit {
                for dropped in state.identifiers.prefix(state.identifiers.count - Self.limit) { state.passages[dropped] = nil }
                state.identifiers.removeFirst(state.identifiers.count - Self.limit)
            }
        }
    }

    var all: [String] { state.withLock { $0.identifiers } }

    /// The passage the latest search showed of this item, if it showed one.
    func passage(of identifier: String) -> Int? { state.withLock { $0.passages[identifier] } }
}
