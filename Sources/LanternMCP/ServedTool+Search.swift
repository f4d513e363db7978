import LocalModel
import SearchIndex
import SearchTool

extension ServedTool {
    /// The search tool (`spotlight_search`), with its guide as the description. Its structured
    /// result is the query's final reply, the one its text shows: what kind of data it is, how
    /// many results, the items with their attributes and the snippet of each one's best
    /// passage, and what the tool added to the query or relaxed.
    public static func search(_ tool: SearchTool) -> ServedTool {
        ServedTool(tool, outputSchema: searchOutputSchema) { result in
            guard let reply = result.structuredContent.compactMap({ $0 as? SearchReply }).last else {
                // Every search the engine runs replies; no reply means the text is an error.
                return .failure(result.text)
            }
            let items: [JSONValue] = reply.content.items.map { item in
                var entry: JSONObject = ["id": .string(item.uniqueIdentifier), "attributes": item.attributesJSON]
                if let passage = reply.passages[item.uniqueIdentifier] {
                    entry["snippet"] = .string(passage.snippet)
                    entry["location"] = .string(passage.passage.location.description)
                }
                return .object(entry)
            }
            let structured: JSONValue = [
                "kind": .string(reply.content.type.rawValue),
                "resultCount": .int(reply.content.resultCount),
                "items": .array(items),
                "adjustments": .array(reply.adjustments.map { .string($0.description) }),
            ]
            return Outcome(text: result.text, structured: structured, isError: false)
        }
    }

    private static let searchOutputSchema: JSONValue = [
        "type": "object",
        "properties": [
            "kind": ["type": "string", "enum": .array(SearchPipelineDataType.allCases.map { .string($0.rawValue) }),
                     "description": "What the query's last stage produced"],
            "resultCount": ["type": "integer", "minimum": 0,
                            "description": "How many results: items, grouped items, the count, table rows"],
            "items": [
                "type": "array",
                "description": "The items the results hold, in their order",
                "items": [
                    "type": "object",
                    "properties": [
                        "id": ["type": "string", "description": "The id to fetch the item by"],
                        "attributes": SearchableItem.attributesSchema,
                        "snippet": ["type": "string", "description": "The item's best passage for the query's words"],
                        "location": ["type": "string", "description": "Where that passage is in the item"],
                    ],
                    "required": ["id", "attributes"],
                ],
            ],
            "adjustments": ["type": "array", "items": ["type": "string"],
                            "description": "What the tool added to the query or relaxed when it found nothing"],
        ],
        "required": ["kind", "resultCount", "items", "adjustments"],
    ]
}
