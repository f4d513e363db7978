import Foundation
import LocalModel
import SearchIndex
import SearchTool

extension ServedTool {
    /// The fetch tool of `search` (`fetch_item`): one item in full, or one place in it. Its
    /// structured result is the item's attributes and the text read, cut like the text content
    /// at the search tool's `maximumResponseSize` (a client may hand either to its model, so
    /// neither may overflow a window the other fits). An id no item has is a tool error.
    public static func fetch(of search: SearchTool) -> ServedTool {
        let limit = search.configuration.maximumResponseSize
        return ServedTool(search.fetchTool, outputSchema: fetchOutputSchema) { result in
            guard let item = result.structuredContent.compactMap({ $0 as? SearchableItem }).first else {
                // No item beside the text: the text says the id is unknown or the place is not in it.
                return .failure(result.text)
            }
            let passage = result.structuredContent.compactMap { $0 as? Passage }.first
            var structured: JSONObject = ["id": .string(item.uniqueIdentifier), "attributes": item.attributesJSON]
            if let text = passage?.text ?? item.attributeSet.textContent {
                let cut = limit.map { text.utf8.count > $0 } ?? false
                structured["text"] = .string(cut ? String(decoding: text.utf8.prefix(limit ?? 0), as: UTF8.self) : text)
                structured["truncated"] = .bool(cut)
            }
            if let passage {
                structured["passage"] = ["index": .int(passage.index), "count": .int(passage.count),
                                         "location": .string(passage.location.description)]
            }
            return Outcome(text: result.text, structured: .object(structured), isError: false)
        }
    }

    private static let fetchOutputSchema: JSONValue = [
        "type": "object",
        "properties": [
            "id": ["type": "string"],
            "attributes": SearchableItem.attributesSchema,
            "text": ["type": "string", "description": "The text read: the whole item's, or the passage's"],
            "truncated": ["type": "boolean", "description": "Whether the text was cut at the size limit"],
            "passage": [
                "type": "object",
                "description": "The passage read, when one place of the item was",
                "properties": [
                    "index": ["type": "integer", "minimum": 0],
                    "count": ["type": "integer", "minimum": 1],
                    "location": ["type": "string"],
                ],
                "required": ["index", "count", "location"],
            ],
        ],
        "required": ["id", "attributes"],
    ]
}
