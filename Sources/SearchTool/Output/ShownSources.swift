import LocalModel
import SearchIndex

/// The items an output showed the model, as the sources an answer may cite and quote
/// (`CitableSource`): an item counts when its identifier is in the output's text (a row the
/// size limit cut is not), and its text is what the model read of it: the title, description
/// and text among the fetched attributes, or, for a fetched item, the whole rendering.
enum ShownSources {
    /// The attributes whose text a quote may be taken from, when a result row shows them.
    static let quotable: [SearchableItemAttribute] = [.title, .contentDescription, .textContent]

    /// Result rows: each shown item with the quotable attributes among `attributes`.
    static func results(_ items: [SearchableItem], in text: String, attributes: [SearchableItemAttribute]) -> [CitableSource] {
        let shown = quotable.filter(attributes.contains)
        return items.filter { text.contains(TextFraming.neutralized($0.uniqueIdentifier)) }.map { item in
            let lines = shown.compactMap { item.attributeSet[$0].map(attributeText) }.filter { !$0.isEmpty }
            return CitableSource(id: item.uniqueIdentifier, text: lines.joined(separator: "\n"))
        }
    }

    /// A stage's output: its item rows; an aggregate (a count, groups, a statistic) shows none,
    /// and the session then takes the output itself as one source.
    static func results(of data: SearchPipelineData, in text: String, attributes: [SearchableItemAttribute]) -> [CitableSource] {
        switch data {
        case .items, .scoredItems: results(data.items, in: text, attributes: attributes)
        case .groupedItems, .count, .table, .statistic, .text: []
        }
    }

    /// A fetched item: the whole text the model read.
    static func fetched(_ item: SearchableItem, text: String) -> [CitableSource] {
        [CitableSource(id: item.uniqueIdentifier, text: text)]
    }

    private static func attributeText(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): TextFraming.neutralized(text)
        case .strings(let texts): texts.map(TextFraming.neutralized).joined(separator: ", ")
        case .number, .date: ""
        }
    }
}
