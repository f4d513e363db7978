import Foundation
import SearchIndex

extension SearchTool {
    /// Everything that shapes the tool (Apple's `SpotlightSearchTool.Configuration`); every
    /// member is defaulted so `SearchTool()` searches the default named index.
    public struct Configuration: Sendable {
        /// Where to search; empty means the default named index (`SearchableIndex(name:
        /// "default")`) with titles only, as Apple's empty list means the default Core
        /// Spotlight source.
        public var sources: [SearchSource]
        /// Which capabilities the query language offers, and the output format. Apple's default
        /// (nil) is `.complete`; so is Lantern's.
        public var guide: Guide
        /// Resolves "me" in filters on people.
        public var contactResolver: (any ContactResolver)?
        /// App-defined stages, offered in the schema after the built-in ones.
        public var customStages: [any CustomStage]
        /// Cap on each tool output in UTF-8 characters, with a marker saying how many results
        /// were left out. Apple's nil means no cap; Lantern defaults to 4,000 because a small
        /// model's 4K–8K window cannot hold more.
        public var maximumResponseSize: Int?
        /// UTF-8 bytes of the snippet each result of a search with words shows: its best passage
        /// around the matched words, so the sentence that answers reaches the model without a
        /// fetch (nil: no snippets). It counts against `maximumResponseSize` like any attribute.
        public var snippetLength: Int?
        /// How a search's words find items: hybrid by default (words and meaning, on an index
        /// with an embedder), or words or meaning alone (`eval --words-search` compares them).
        public var wordsSearch: WordsSearch
        /// The tool's name on the wire.
        public var name: String
        /// The fetch tool's name on the wire.
        public var fetchToolName: String
        /// Whether each request's grammar limits search terms to the question's own words,
        /// filter values of few-valued attributes to the index's values, and custom stages'
        /// free string arguments to the question's words and phrases. On by default: a 135M
        /// model writes digits for free-form terms and invents a stage's text arguments.
        public var restrictsTermsToQuestion: Bool
        /// How long hydration waits for a delegate before using what the index holds.
        public var hydrationTimeout: Duration
        /// The moment relative dates ("today", "this_month", "last_week") resolve against,
        /// read once per query. Defaults to the clock; evaluations pin it so that "this month"
        /// questions keep the answers their datasets were written with.
        public var now: @Sendable () -> Date

        public init(sources: [SearchSource] = [], guide: Guide = .complete, contactResolver: (any ContactResolver)? = nil,
                    customStages: [any CustomStage] = [], maximumResponseSize: Int? = 4_000, snippetLength: Int? = 200,
                    wordsSearch: WordsSearch = .hybrid, name: String = "spotlight_search",
                    fetchToolName: String = "fetch_item", restrictsTermsToQuestion: Bool = true,
                    hydrationTimeout: Duration = .seconds(2), now: @escaping @Sendable () -> Date = { Date() }) {
            self.sources = sources
            self.guide = guide
            self.contactResolver = contactResolver
            self.customStages = customStages
            self.maximumResponseSize = maximumResponseSize
            self.snippetLength = snippetLength
            self.wordsSearch = wordsSearch
            self.name = name
            self.fetchToolName = fetchToolName
            self.restrictsTermsToQuestion = restrictsTermsToQuestion
            self.hydrationTimeout = hydrationTimeout
            self.now = now
        }
    }
}
