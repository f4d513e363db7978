import LocalModel
import SearchIndex

/// The items an output showed the model, as the sources an answer may cite and quote
/// (`CitableSource`): an item counts when its identifier is in the output's text (a row the
/// size limit cut is not), and its text is what the model read of it: the title, description
/// and text among the fetched attributes and its best passage's snippet, or, for a fetched
/// item, the whole rendering.
enum ShownSources {
    /// The attributes whose text a quote may be taken from, when a result row shows them.
    static let quotable: [SearchableItemAttribute] = [.title, .contentDescription, .textContent]

    /// Result rows: each shown item with the quotable attributes among `attributes`, then the
    /// snippet of its best passage (`passages`, by identifier), located when the item has several.
    static func results(_ items: [SearchableItem], in text: String, attributes: [SearchableItemAttribute],
                        passages: [String: PassageMatch] = [:]) -> [CitableSource] {
        let shown = quotable.filter(attributes.contains)
        return items.filter { text.contains(TextFraming.neutralized($0.uniqueIdentifier)) }.map { item in
            let match = passages[item.uniqueIdentifier]
            let lines = shown.compactMap { item.attributeSet[$0].map(attributeText) } + [match.map { TextFraming.neutralized($0.snippet) } ?? ""]
            return CitableSource(id: item.uniqueIdentifier, text: lines.filter { !$0.isEmpty }.joined(separator: "\n"),
                                 location: match.flatMap { $0.passage.count > 1 ? $0.passage.location.description : nil })
        }
    }

    /// A stage's output: its item rows; for an aggregate (a count, groups, a statistic), the
    /// tool's own result (`CitableSource.Kind.result`): its sentences as the output wrote them,
    /// which the session names after the tool (`4 items match. [spotlight_search]`). A table or
    /// a text shows none, and the session then takes the output itself as one source.
    static func results(of data: SearchPipelineData, in text: String, attributes: [SearchableItemAttribute],
                        passages: [String: PassageMatch] = [:], formatter: ResultFormatter) -> [CitableSource] {
        switch data {
        case .items, .scoredItems: return results(data.items, in: text, attributes: attributes, passages: passages)
        case .groupedItems, .count, .statistic: return toolResult(formatter.resultSentences(data), in: text)
        case .table, .text: return []
        }
    }

    /// Sentences the tool computed (a count, groups, a statistic; for a search, what the
    /// question asks of its matches: `4 items matched: …`, `avg distanceKilometers: 6.75 …`) as
    /// its own result, those the output says: they are then the answer whatever query found the
    /// items, and a quoting model can say the number (`QuestionEvidenceRanker` puts it first;
    /// with `answersQuestion`, what the question asks, a quoted answer begins with it).
    static func toolResult(_ sentences: [String], in text: String, answersQuestion: Bool = false) -> [CitableSource] {
        let shown = sentences.filter(text.contains)
        return shown.isEmpty ? [] : [CitableSource(id: "result", text: shown.joined(separator: "\n"), kind: .result, answersQuestion: answersQuestion)]
    }

    /// A fetched item, or one place of it: the whole text the model read.
    static func fetched(_ item: SearchableItem, text: String, location: String? = nil) -> [CitableSource] {
        [CitableSource(id: item.uniqueIdentifier, text: text, location: location)]
    }

    private static func attributeText(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): TextFraming.neutralized(text)
        case .strings(let texts): texts.map(TextFraming.neutralized).joined(separator: ", ")
        case .number, .date: ""
        }
    }
}
