import LocalModel
import SearchIndex
import SearchTool
import TokenBudget

/// Everything a question's session needs from the index, worked out once: which attributes the
/// model sees in results, their kinds, the guide, and the instructions describing the index.
/// Each question then gets a fresh search tool and session from `makeSession`.
struct SearchSetup: Sendable {
    let index: SearchableIndex
    let fetchAttributes: [SearchableItemAttribute]
    let customKinds: [SearchableItemAttribute: AttributeKind]
    let guide: Guide
    let instructions: String

    /// Results show at most this many attributes: a 4K–8K window cannot afford every column.
    static let maximumFetchAttributes = 8

    init(index: SearchableIndex, guideOptions: GuideOptions) async throws {
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
        fetchAttributes = attributes
        customKinds = Dictionary(catalogue.filter(\.isCustom).map { ($0.attribute, $0.kind) }, uniquingKeysWith: { first, _ in first })
        guide = guideOptions.guide(isFolder: isFolder, attributes: attributes)
        let lead = "You answer questions about the user's own data. Search it with the tools, then answer briefly from what they returned."
        instructions = lead + "\n" + (try await SearchInstructions().render(for: index))
    }

    /// A fresh search tool (its `searchResults` stream belongs to this question) and a session
    /// with the search and fetch tools.
    func makeSession(model: any LanguageModel, window: ContextWindow?, thinking: Bool) -> (LanguageModelSession, SearchTool) {
        let source = IndexSource(index: index, fetchAttributes: fetchAttributes, customAttributeKinds: customKinds)
        let tool = SearchTool(configuration: .init(sources: [.index(source)], guide: guide))
        let session = LanguageModelSession(model: model, tools: [tool, tool.fetchTool], instructions: instructions,
                                           contextWindow: window, thinking: thinking)
        return (session, tool)
    }
}
