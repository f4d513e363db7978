/// What the index embeds for an item, one text per passage it stores vectors for: a long
/// item's passages each with the item's title before them (a passage's words alone often do not
/// say what it is about), a short item its title, description and text together.
enum PassageEmbeddingText {
    /// The texts, in passage order; always at least one.
    static func texts(of item: SearchableItem) -> [String] {
        let set = item.attributeSet
        let body = set.textContent.map(ItemStore.clean) ?? ""
        let title = [set.title, set.displayName].compactMap { $0.map(ItemStore.clean) }.joined(separator: "\n")
        let spans = ItemStore.storedPassageSpans(of: body, contentType: set.contentType)
        guard !spans.isEmpty else {
            return [[title, set.contentDescription.map(ItemStore.clean) ?? "", body].filter { !$0.isEmpty }.joined(separator: "\n")]
        }
        let bytes = Array(body.utf8)
        return spans.map { span in
            let text = String(decoding: bytes[(span.start..<span.end).clamped(to: 0..<bytes.count)], as: UTF8.self)
            return title.isEmpty ? text : title + "\n" + text
        }
    }
}
