import Foundation
import LocalModel
import SearchIndex
import SearchTool
import TokenBudget

/// Runs an evaluation: indexes a corpus into a fresh temporary index, answers every sample in
/// a fresh session with the search and fetch tools, and measures each answer. Sessions come
/// from `SearchSetup`, the wiring `ask` uses, so what is measured is what users run.
///
/// The seeds' harness "donates" the items to the real index and runs the real search (§16);
/// this one does the same with a throwaway SQLite file, so a run never touches the user's
/// indexes and every run starts from the same state.
public struct EvaluationRunner: Sendable {
    public struct Configuration: Sendable {
        /// How much of the query language the search tool offers (`eval --guide`).
        public var guide: SearchSetup.GuideLevel
        public var format: FormatLevel
        /// nil uses the model's default window.
        public var contextWindow: ContextWindow?
        /// How many times each sample runs.
        public var repetitions: Int
        /// nil decodes greedily (the same answer every time). A seed samples instead, with
        /// `seed + repetition` for each repetition so repeated runs differ but replay exactly.
        public var seed: UInt32?
        /// The time zone dates in the index are read in.
        public var timeZone: TimeZone
        /// `.required` by default, as `ask` answers: the first round must search (a small model
        /// otherwise answers from memory and the evaluation measures nothing), and the session
        /// relaxes to `.allowed` after it, so the model may fetch, search again or answer.
        public var toolCallingMode: GenerationOptions.ToolCallingMode
        /// The cap on each generation round; nil is the session's default (a quarter of the window, at most 512).
        public var maximumResponseTokens: Int?
        /// How answers are written (`eval --answer`); `.automatic` by default, as `ask` answers.
        public var answerStyle: GenerationOptions.AnswerStyle
        /// The moment relative dates in questions ("this month") resolve against. The clock by
        /// default; a dataset written on a given day pins it to that day (`eval --today`), or
        /// its date questions change answers as time passes.
        public var now: @Sendable () -> Date
        /// What gives the index vectors for search by meaning (nil: full text only), as `ask`
        /// indexes with the installed embedding model.
        public var embedder: (any TextEmbedder)?
        /// How searches' words find items (`eval --words-search`), to compare words, meaning and both.
        public var wordsSearch: WordsSearch

        public init(guide: SearchSetup.GuideLevel = .focused, format: FormatLevel = .structured, contextWindow: ContextWindow? = nil,
                    repetitions: Int = 1, seed: UInt32? = nil, timeZone: TimeZone = .current,
                    toolCallingMode: GenerationOptions.ToolCallingMode = .required, maximumResponseTokens: Int? = nil,
                    answerStyle: GenerationOptions.AnswerStyle = .automatic, embedder: (any TextEmbedder)? = nil,
                    wordsSearch: WordsSearch = .hybrid, now: @escaping @Sendable () -> Date = { Date() }) {
            self.guide = guide
            self.format = format
            self.contextWindow = contextWindow
            self.repetitions = max(1, repetitions)
            self.seed = seed
            self.timeZone = timeZone
            self.toolCallingMode = toolCallingMode
            self.maximumResponseTokens = maximumResponseTokens
            self.answerStyle = answerStyle
            self.embedder = embedder
            self.wordsSearch = wordsSearch
            self.now = now
        }
    }

    public let model: any LanguageModel
    public let configuration: Configuration

    public init(model: any LanguageModel, configuration: Configuration = Configuration()) {
        self.model = model
        self.configuration = configuration
    }

    /// Runs every sample `repetitions` times over `corpus`, calling `progress` after each run
    /// with the result, how many runs are done and how many there are. Over a folder, samples
    /// name files relative to it (`EvaluationCorpus.resolving(_:)`).
    public func run(corpus: EvaluationCorpus, samples: [EvaluationSample],
                    progress: @Sendable (SampleResult, _ done: Int, _ total: Int) -> Void = { _, _, _ in }) async throws(EvaluationError) -> [SampleResult] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-eval-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let world = try await World(corpus: corpus, folder: folder, configuration: configuration)
        var results: [SampleResult] = []
        let total = samples.count * configuration.repetitions
        for repetition in 0..<configuration.repetitions {
            for sample in samples.map(corpus.resolving) {
                let result = await run(sample, repetition: repetition, in: world, titles: world.titles)
                results.append(result)
                progress(result, results.count, total)
            }
        }
        return results
    }

    /// The index and the session wiring, shared by every sample.
    struct World: Sendable {
        let index: SearchableIndex
        let setup: SearchSetup
        /// Every item's title by identifier, so an answer may cite an item by name.
        let titles: [String: String]

        init(corpus: EvaluationCorpus, folder: URL, configuration: Configuration) async throws(EvaluationError) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                index = try SearchableIndex(url: folder.appendingPathComponent("corpus.sqlite"), timeZone: configuration.timeZone,
                                            embedder: configuration.embedder)
                try await corpus.index(into: index)
                // Words are written first; the answers are measured with every item's vectors.
                if index.embedder != nil { try await index.embedPendingItems() }
                let items = try await index.search(SearchQuery(.all, sort: [], limit: nil, fetchAttributes: [.title]))
                titles = Dictionary(items.map { ($0.item.uniqueIdentifier, $0.item.attributeSet.title ?? "") }) { first, _ in first }
                setup = try await SearchSetup(index: index, guide: configuration.guide, format: configuration.format,
                                              wordsSearch: configuration.wordsSearch, now: configuration.now)
            } catch EvaluationError.emptyCorpus {
                throw .emptyCorpus
            } catch {
                throw .indexing(String(describing: error))
            }
        }
    }

    private func run(_ sample: EvaluationSample, repetition: Int, in world: World, titles: [String: String]) async -> SampleResult {
        let (session, tool) = world.setup.makeSession(model: model, window: configuration.contextWindow, thinking: false)
        let fetch = tool.fetchTool
        let schemas = [tool.name: tool.parameters, fetch.name: fetch.parameters]
        let options = GenerationOptions(sampling: configuration.seed.map { .random(top: 40, seed: $0 &+ UInt32(repetition)) },
                                        maximumResponseTokens: configuration.maximumResponseTokens,
                                        toolCallingMode: configuration.toolCallingMode, answerStyle: configuration.answerStyle)
        let start = ContinuousClock.now
        let observation: SampleObservation
        do {
            let response = try await session.respond(to: sample.prompt, options: options)
            let elapsed = ContinuousClock.now - start
            observation = SampleObservation(answer: response.content, entries: Array(response.transcriptEntries), sources: response.sources,
                                            latency: Latency(total: elapsed, usage: response.usage), tokens: TokenCounts(response.usage))
        } catch {
            let elapsed = ContinuousClock.now - start
            observation = SampleObservation(answer: "", entries: Array(session.transcript),
                                            latency: Latency(total: elapsed.seconds), error: String(describing: error))
        }
        let metrics = SampleMetrics(sample: sample, observation: observation, titles: titles, schemas: schemas)
        return SampleResult(sampleID: sample.id, repetition: repetition, prompt: sample.prompt, answer: observation.answer,
                            error: observation.error, metrics: metrics)
    }
}
