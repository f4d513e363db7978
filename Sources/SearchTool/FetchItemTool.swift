import Foundation
import LocalModel
import SearchIndex

/// Reads one item in full, or one place in it: what the index keeps (its text included) merged
/// with what the index delegate returns. The second half of the two-tool pattern the seeds
/// verified: search returns metadata and snippets, fetch returns the body, and the model answers
/// from what it read. A long document is read a place at a time (a passage, a page, the passage
/// around some words), so page 40 reaches the model without pages 1–39.
public struct FetchItemTool: Tool {
    /// `{"id": "...", "page": 40}`: the id, and one place (`around`, `passage` or `page`).
    /// A model that fills every key (Qwen2.5-Coder writes `"passage": 0, "page": 1,
    /// "around": "…"`) is read, not refused: an empty `around` is no place, and of several
    /// places the most specific is read (`Place.precedence`), the others named in `leftOut`.
    public struct Arguments: ConvertibleFromGeneratedContent, Sendable {
        public var id: String
        /// The place to read; nil reads the whole item.
        public var place: PassagePlace?
        /// The key of the place read, and the places the call also named, which were not read.
        public var placeKey: Place?
        public var leftOut: [Place] = []
        public init(_ content: GeneratedContent) throws {
            guard let id = content[FetchItemTool.idKey]?.stringValue else {
                throw SearchToolError.invalidQuery("fetch needs an \"\(FetchItemTool.idKey)\" string")
            }
            self.id = id
            let named = Place.precedence.compactMap { key in key.value(in: content).map { (key, $0) } }
            (placeKey, place) = (named.first?.0, named.first?.1)
            leftOut = named.dropFirst().map(\.0)
        }
    }

    /// The optional keys that name a place in the item, in the schema's order.
    public enum Place: String, CaseIterable, Sendable {
        case passage, page, around

        /// Which of several places a call names is read: the words asked about, then a passage
        /// a search showed, then a page.
        static let precedence: [Place] = [.around, .passage, .page]

        /// The place this key names in a call's arguments, if it names one.
        func value(in content: GeneratedContent) -> PassagePlace? {
            switch self {
            case .around:
                guard let words = content[rawValue]?.stringValue, !words.allSatisfy(\.isWhitespace) else { return nil }
                return .matching(words)
            case .passage: return content[rawValue]?.intValue.map { .passage($0) }
            case .page: return content[rawValue]?.intValue.map { .page($0) }
            }
        }

        /// The key's schema; the compact sketch's key names say most of it, so its notes are shorter.
        func schema(compact: Bool) -> GenerationSchema {
            switch self {
            case .passage: .integer(description: compact ? "from a result's at" : "A passage number from the search result's \"at\"", minimum: 0)
            case .page: .integer(description: compact ? nil : "A page to read", minimum: 1)
            case .around: .string(description: compact ? "words" : "Read the passage with these words", maxLength: 120)
            }
        }
    }

    public let name: String
    public let description: String
    public let parameters: GenerationSchema
    /// True for the structured format; the compact one sketches the schema in the description
    /// (`SchemaSketch`), as the search tool does, at half the tokens of its JSON Schema.
    public var includesSchemaInInstructions: Bool { format == .structured }
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
        self.parameters = Self.schema(id: .string(description: format == .compact ? nil : "An id from \(searchToolName)", maxLength: Self.maximumIdentifierLength),
                                      compact: format == .compact)
        self.description = format == .compact
            ? "Read one item's full text by its id from \(searchToolName). Arguments: \(SchemaSketch.render(parameters))."
            : "Reads the full content of one item by the id that \(searchToolName) returned. Call it before describing what an item says."
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
        return Self.schema(id: .string(description: format == .compact ? nil : "An id from \(searchToolName)", anyOf: shown), compact: format == .compact)
    }

    /// The id, then the optional places.
    private static func schema(id: GenerationSchema, compact: Bool) -> GenerationSchema {
        .object([.property(idKey, id)] + Place.allCases.map { .property($0.rawValue, $0.schema(compact: compact), optional: true) })
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
        if let place = arguments.place {
            var notes: [String] = []
            if let key = arguments.placeKey, !arguments.leftOut.isEmpty {
                notes.append("fetch reads one place at a time: this is \(key.rawValue); \(arguments.leftOut.map(\.rawValue).joined(separator: " and ")) left out.")
            }
            return try await result(for: arguments.id, at: place, notes: notes)
        }
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
                // A text longer than the response starts at the passage the search showed.
                if let body = item.attributeSet.textContent, let maximumResponseSize, body.utf8.count > maximumResponseSize,
                   let shown = shownIdentifiers.passage(of: arguments.id),
                   let passage = try? await source.index.passage(of: arguments.id, at: .passage(shown)) {
                    return result(item, passage: passage, notes: notes, timeZone: source.index.timeZone)
                }
                let text = render(item, notes: notes, timeZone: source.index.timeZone)
                return ToolResult(text: text, structuredContent: [item], sources: ShownSources.fetched(item, text: text))
            }
        }
        return ToolResult(text: unknownIdentifier(arguments.id))
    }

    private func unknownIdentifier(_ identifier: String) -> String {
        "No item has the id \(TextFraming.neutralized(identifier)). Use an id exactly as \(name == "fetch_item" ? "the search" : "the search tool") returned it."
    }

    /// One place of an item, from the first source that has the item; a place the item lacks
    /// answers with the places it has.
    private func result(for identifier: String, at place: PassagePlace, notes: [String]) async throws -> ToolResult {
        for source in try await resolver.sources() {
            do {
                guard let passage = try await source.index.passage(of: identifier, at: place),
                      let item = try await source.index.fetchItems(identifiers: [identifier]).first else { continue }
                return result(item, passage: passage, notes: notes, timeZone: source.index.timeZone)
            } catch let error as SearchIndexError {
                guard case .passageNotFound = error else { throw error }
                return ToolResult(text: TextFraming.neutralized(error.description))
            }
        }
        return ToolResult(text: unknownIdentifier(identifier))
    }

    /// One passage of an item for the model, the passage beside it for the app, and what the
    /// model read as the source an answer may cite, with where it is.
    private func result(_ item: SearchableItem, passage: Passage, notes: [String], timeZone: TimeZone) -> ToolResult {
        let text = render(item, passage: passage, notes: notes, timeZone: timeZone)
        return ToolResult(text: text, structuredContent: [item, passage],
                          sources: ShownSources.fetched(item, text: text, location: passage.location.description))
    }

    /// Every attribute, then one passage of the text with where it is and, when the item has
    /// other passages, how to read them (an item of one passage was read whole: an invitation to
    /// read "another part" of it was echoed as the answer), framed like search output and cut to
    /// the size limit.
    private func render(_ item: SearchableItem, passage: Passage, notes: [String], timeZone: TimeZone) -> String {
        var shown = item
        shown.attributeSet.textContent = nil
        let place = "passage \(passage.index) of \(passage.count), \(passage.location)"
        let guidance = passage.count < 2 ? [] : ["To read another part, call \(name) with this id and passage (0-\(passage.count - 1))"
            + (passage.location.page == nil ? "" : ", page") + " or around (words)."]
        return render(shown, text: (label: "text (\(place))", body: passage.text), notes: notes + guidance, timeZone: timeZone)
    }

    /// Every attribute, text last, framed like search output and cut to the size limit.
    private func render(_ item: SearchableItem, notes: [String], timeZone: TimeZone) -> String {
        var attributes = item
        attributes.attributeSet.textContent = nil
        return render(attributes, text: item.attributeSet.textContent.map { (label: "text", body: $0) }, notes: notes, timeZone: timeZone)
    }

    private func render(_ item: SearchableItem, text shownText: (label: String, body: String)?, notes: [String], timeZone: TimeZone) -> String {
        let formatter = ResultFormatter(format: .compact, maximumSize: nil, attributeOrder: [], timeZone: timeZone)
        var lines = ["id: " + TextFraming.singleLine(item.uniqueIdentifier)]
        let attributes = item.attributeSet.values.keys.filter { $0 != .textContent }.sorted { $0.rawValue < $1.rawValue }
        for attribute in attributes {
            if let value = item.attributeSet[attribute] { lines.append("\(attribute.rawValue): \(formatter.compactValue(value))") }
        }
        var text = lines.joined(separator: "\n")
        if let shownText {
            text += "\n\(shownText.label):\n" + TextFraming.neutralized(shownText.body)
        }
        let noteText = notes.map { "\n" + $0 }.joined()
        if let maximumResponseSize, text.utf8.count + noteText.utf8.count > maximumResponseSize {
            var cut = ""
            let budget = max(0, maximumResponseSize - noteText.utf8.count - 80)
            for character in text {
                guard cut.utf8.count + character.utf8.count <= budget else { break }
                cut.append(character)
            }
            text = cut + "\n[text cut: \(text.utf8.count - cut.utf8.count) more characters left out; call \(name) with this id and around (words), passage or page to read another part]"
        }
        return text + noteText
    }
}
