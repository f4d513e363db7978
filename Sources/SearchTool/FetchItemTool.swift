import Foundation
import LocalModel
import SearchIndex

/// Reads one item in full: what the index keeps (its text included) merged with what the
/// index delegate returns. The second half of the two-tool pattern the seeds verified: search
/// returns metadata, fetch returns the body, and the model answers from what it read.
public struct FetchItemTool: Tool {
    /// `{"id": "..."}`.
    public struct Arguments: ConvertibleFromGeneratedContent, Sendable {
        public var id: String
        public init(_ content: GeneratedContent) throws {
            guard let id = content[FetchItemTool.idKey]?.stringValue else {
                throw SearchToolError.invalidQuery("fetch needs an \"\(FetchItemTool.idKey)\" string")
            }
            self.id = id
        }
    }

    public let name: String
    public let description: String
    public let parameters: GenerationSchema
    let resolver: SourceResolver
    let hydrator: Hydrator
    let format: FormatLevel
    let maximumResponseSize: Int?
    let shownIdentifiers: ShownIdentifiers
    let searchToolName: String
    static let maximumIdentifierLength = 200
    /// The one argument's key, for the schema and for reading a call.
    static let idKey = "id"

    init(name: String, searchToolName: String, resolver: SourceResolver, hydrator: Hydrator, format: FormatLevel,
         maximumResponseSize: Int?, shownIdentifiers: ShownIdentifiers) {
        self.name = name
        self.description = format == .compact
            ? "Read one item's full text by its id from \(searchToolName)."
            : "Reads the full content of one item by the id that \(searchToolName) returned. Call it before describing what an item says."
        self.parameters = .object([.property(Self.idKey, .string(description: "An id from \(searchToolName)", maxLength: Self.maximumIdentifierLength))])
        self.resolver = resolver
        self.hydrator = hydrator
        self.format = format
        self.maximumResponseSize = maximumResponseSize
        self.shownIdentifiers = shownIdentifiers
        self.searchToolName = searchToolName
    }

    /// `id` may only be one of the identifiers the search tool has shown (the session asks
    /// again every round, so ids found by this response's searches count).
    public func parameters(for prompt: Prompt) async -> GenerationSchema {
        let shown = shownIdentifiers.all
        guard !shown.isEmpty else { return parameters }
        return .object([.property(Self.idKey, .string(description: "An id from \(searchToolName)", anyOf: shown))])
    }

    /// Nothing can be fetched before a search has shown an identifier: left out of the round's
    /// grammar until then, so a small model searches first instead of inventing an id.
    public func isAvailable(for prompt: Prompt) async -> Bool {
        !shownIdentifiers.all.isEmpty
    }

    /// The text the model reads: `result(for:)` without the item.
    public func call(arguments: Arguments) async throws -> String {
        try await result(for: arguments).text
    }

    /// The item's text for the model and, beside it in the call's transcript entry, the item
    /// as read (what the index keeps merged with what the delegate returned; read it back with
    /// `toolOutput.structuredContents(as: SearchableItem.self)`). Nothing beside the text when no
    /// item has the id or the app dropped it.
    public func result(for arguments: Arguments) async throws -> ToolResult {
        for source in try await resolver.sources() {
            let stored = try await source.index.fetchItems(identifiers: [arguments.id]).first
            var notes: [String] = []
            var item = stored
            if let delegate = source.delegate {
                if let hydrated = await hydrator.items(for: [arguments.id], from: delegate) {
                    if let fresh = hydrated[arguments.id] {
                        item = stored.map { Hydrator.merge($0, with: fresh) } ?? (stored == nil ? nil : fresh)
                    } else if stored != nil {
                        return ToolResult(text: "The item \(TextFraming.neutralized(arguments.id)) was dropped: the app no longer has it.")
                    }
                } else {
                    notes.append("The app did not answer within \(hydrator.timeout); this is what the index holds.")
                }
            }
            if let item {
                let text = render(item, notes: notes, timeZone: source.index.timeZone)
                return ToolResult(text: text, structuredContent: [item], sources: ShownSources.fetched(item, text: text))
            }
        }
        return ToolResult(text: "No item has the id \(TextFraming.neutralized(arguments.id)). Use an id exactly as \(name == "fetch_item" ? "the search" : "the search tool") returned it.")
    }

    /// Every attribute, text last, framed like search output and cut to the size limit.
    private func render(_ item: SearchableItem, notes: [String], timeZone: TimeZone) -> String {
        let formatter = ResultFormatter(format: .compact, maximumSize: nil, attributeOrder: [], timeZone: timeZone)
        var lines = ["id: " + TextFraming.singleLine(item.uniqueIdentifier)]
        let attributes = item.attributeSet.values.keys.filter { $0 != .textContent }.sorted { $0.rawValue < $1.rawValue }
        for attribute in attributes {
            if let value = item.attributeSet[attribute] { lines.append("\(attribute.rawValue): \(formatter.compactValue(value))") }
        }
        var text = lines.joined(separator: "\n")
        if let body = item.attributeSet.textContent {
            text += "\ntext:\n" + TextFraming.neutralized(body)
        }
        let noteText = notes.map { "\n" + $0 }.joined()
        if let maximumResponseSize, text.utf8.count + noteText.utf8.count > maximumResponseSize {
            var cut = ""
            let budget = max(0, maximumResponseSize - noteText.utf8.count - 80)
            for character in text {
                guard cut.utf8.count + character.utf8.count <= budget else { break }
                cut.append(character)
            }
            text = cut + "\n[text cut: \(text.utf8.count - cut.utf8.count) more characters left out]"
        }
        return text + noteText
    }
}
