import LocalModel
import SearchIndex
import SearchTool

/// Which places of which items reached the model in one response: the best passage each final
/// search reply showed (its snippet), every passage a fetch of a place returned, and every
/// passage of an item fetched whole and shown uncut. Passage coverage is computed from it.
struct PassageReach {
    private var passages: [Passage] = []
    /// Items whose whole text a fetch showed.
    private var wholeItems: Set<String> = []

    init(entries: [Transcript.Entry]) {
        for entry in entries {
            guard case .toolOutput(let output) = entry else { continue }
            for reply in output.structuredContents(as: SearchReply.self) where reply.status == .complete {
                passages += reply.passages.values.map(\.passage)
            }
            let fetched = output.structuredContents(as: Passage.self)
            passages += fetched
            if fetched.isEmpty, !output.text.contains("[text cut") {
                wholeItems.formUnion(output.structuredContents(as: SearchableItem.self).map(\.uniqueIdentifier))
            }
        }
    }

    /// Whether the model was shown the place `expected` names.
    func reached(_ expected: ExpectedPassage) -> Bool {
        if wholeItems.contains(expected.file) { return true }
        return passages.contains { passage in
            guard passage.itemIdentifier == expected.file else { return false }
            if let page = expected.page { return passage.location.page == page }
            if let line = expected.line { return passage.location.lines.contains(line) }
            return true
        }
    }
}
