import Foundation
import LocalModel
import SearchIndex
import TokenBudget

/// Everything a question's session needs from an index, worked out once: which attributes the
/// model sees in results, their kinds, the guide, and the instructions describing the index.
/// Each question then gets a fresh search tool and session from `makeSession`.
///
/// This is the wiring `ask`, the evaluations, the benchmarks and the examples share, so that
/// what is measured is what users run.
public struct SearchSetup: Sendable {
    /// How much of the query language the search tool offers.
    public enum GuideLevel: String, Sendable, CaseIterable {
        /// Title, text and dates: the default, sized for small models and 4K–8K windows.
        case focused
        /// Every attribute, predicate and stage.
        case complete
        /// Filters on exactly the attributes the model sees in results.
        case dynamic
    }

    public let index: SearchableIndex
    public let fetchAttributes: [SearchableItemAttribute]
    public let customKinds: [SearchableItemAttribute: AttributeKind]
    public let guide: Guide
    public let instructions: String
    /// The moment each question's relative dates resolve against (`SearchTool.Configuration.now`).
    public let now: @Sendable () -> Date
    /// How searches' words find items (`SearchTool.Configuration.wordsSearch`).
    public let wordsSearch: WordsSearch

    /// Results show at most this many attributes: a 4K–8K window cannot afford every column.
    public static let maximumFetchAttributes = 8

    /// `now` defaults to the clock; pass a fixed date to replay questions like "this month"
    /// against the day a dataset was written (as `eval --today` does).
    public init(index: SearchableIndex, guide level: GuideLevel = .focused, format: FormatLevel = .structured,
                wordsSearch: WordsSearch = .hybrid, now: @escaping @Sendable () -> Date = { Date() }) async throws {
        let catalogue = try await index.attributeCatalogue()
        // Items with paths came from a folder (FileSource); they read best as documents.
        let isFolder = catalogue.contains { $0.attribute == .path && $0.itemCount > 0 }
        // A file's identifier is its path, so results need no separate path column (long paths
        // also make poor filter values for the model).
        let hidden: Set<SearchableItemAttribute> = [.textContent, .contentType, .displayName, .latitude, .longitude, .path]
        var attributes = isFolder ? FilesSource.defaultFetchAttributes.filter { !hidden.contains($0) } : [.title]
        for summary in catalogue.sorted(by: { $0.itemCount > $1.itemCount })
        where !hidden.contains(summary.attribute) && !attributes.contains(summary.attribute) && attributes.count < Self.maximumFetchAttributes {
            attributes.append(summary.attribute)
        }
        self.index = index
        self.now = now
        self.wordsSearch = wordsSearch
        fetchAttributes = attributes
        customKinds = Dictionary(catalogue.filter(\.isCustom).map { ($0.attribute, $0.kind) }, uniquingKeysWith: { first, _ in first })
        // Focused uses the `.items` domain (title and text) for folders too: `.documents` adds a
        // filter on `path`, whose values are too long to offer as a grammar's choices.
        switch level {
        case .focused: guide = Guide(level: .focused(.items), format: format)
        case .complete: guide = Guide(level: .complete, format: format)
        case .dynamic: guide = Guide(level: .dynamic(GuidanceProfile(attributes: attributes)), format: format)
        }
        let lead = "You answer questions about the user's own data. Search it with the tools, then answer briefly from what they returned."
        instructions = lead + "\n" + (try await SearchInstructions().render(for: index))
    }

    /// A fresh search tool (its `searchResults` stream belongs to this question) and a session
    /// with the search and fetch tools, plus `extraTools`: tools the question needs besides
    /// search, such as OCR and barcode reading when images are attached (`ask --image`).
    /// Extra tools are listed first: a question that brings them is mostly about them, and a
    /// small model leans towards the first tools it reads.
    ///
    /// A conversation a front end keeps (`ask serve`'s clients) adds `externalTools`, the
    /// caller's own functions, listed after fetch so the system turn's start stays the one
    /// every plain question decodes; `instructions` of its own, after the index's; and the
    /// `history` of its earlier turns.
    public func makeSession(model: any LanguageModel, window: ContextWindow?, thinking: Bool,
                            extraTools: [any Tool] = [], externalTools: [ExternalTool] = [],
                            instructions added: String? = nil, history: [Transcript.Entry] = []) -> (LanguageModelSession, SearchTool) {
        let tool = makeTool()
        let instructions = [instructions, added].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "\n\n")
        let session = LanguageModelSession(model: model, tools: extraTools + [tool, tool.fetchTool] + externalTools, instructions: instructions,
                                           contextWindow: window, thinking: thinking, evidenceRanker: tool.evidenceRanker, history: history)
        return (session, tool)
    }

    /// A fresh search tool over the index, with this setup's attributes, guide and clock: the
    /// one `makeSession` offers, for a front end whose model runs elsewhere (`ask mcp`, where
    /// the client's model calls it).
    public func makeTool() -> SearchTool {
        let source = IndexSource(index: index, fetchAttributes: fetchAttributes, customAttributeKinds: customKinds)
        return SearchTool(configuration: .init(sources: [.index(source)], guide: guide, wordsSearch: wordsSearch, now: now))
    }
}
