import Foundation

/// Reads a corpus in JSON Lines into `SearchableItem`s: the format `ask --corpus` indexes and the
/// evaluations load, one item per line:
///
/// ```
/// {"id": "trail-001", "domain": "trails", "contentType": "public.text",
///  "attributes": {"title": "…", "rating": 3, "completionDate": "2024-06-14T19:20:00Z", "keywords": ["river"]},
///  "custom": {"distanceKilometers": 5.4}}
/// ```
///
/// `attributes` holds standard attributes only, each checked against its kind (string, number,
/// ISO-8601 date string, list of strings) and, for numbers with a natural range, against it
/// (`numberRanges`), so a wrong value is reported with its line number here instead of
/// failing later inside the index or being stored as something else. `custom` holds
/// app-defined keys; their kind follows the JSON value (a string that is an ISO-8601 date
/// becomes a date), and string values join the full-text index. Dates are read strictly
/// (`CorpusDate`): one that is on no calendar (2024-02-30) is an error, never the day it rolls
/// over to; a number no `Double` holds (1e400) is an error naming its field. Blank lines are
/// skipped; identifiers must be unique.
public struct CorpusReader: Sendable {
    public init() {}

    /// Reads every item of the file at `url`.
    public func items(contentsOf url: URL) throws(CorpusReaderError) -> [SearchableItem] {
        try items(fromText: JSONLines.text(of: url, problem: CorpusProblem.self), path: url.path)
    }

    /// Reads every item of JSON Lines `text`; `path` only labels errors.
    public func items(fromText text: String, path: String? = nil) throws(CorpusReaderError) -> [SearchableItem] {
        try JSONLines.records(in: text, path: path, identifier: \.uniqueIdentifier) { (line, number) throws(CorpusReaderError) in
            try item(fromLine: line, number: number, path: path)
        }
    }

    /// Reads one line; `number` and `path` label errors.
    public func item(fromLine line: String, number: Int = 1, path: String? = nil) throws(CorpusReaderError) -> SearchableItem {
        func fail(_ problem: CorpusProblem) -> CorpusReaderError {
            CorpusReaderError(path: path, line: number, problem: problem)
        }
        let value: CorpusValue
        do {
            value = try JSONDecoder().decode(CorpusValue.self, from: Data(line.utf8))
        } catch {
            throw fail(.invalidJSON(reason: Self.reason(error)))
        }
        guard case .object(let fields) = value else { throw fail(.invalidJSON(reason: "the line is \(value.kindName)")) }

        guard let idValue = fields["id"] else { throw fail(.missingField("id")) }
        guard case .string(let id) = idValue else { throw fail(.wrongType(field: "\"id\"", expected: "a string", found: idValue.kindName)) }
        guard !id.isEmpty else { throw fail(.emptyIdentifier) }
        let domain = try optionalString(fields["domain"], field: "domain", fail: fail)
        let contentType = try optionalString(fields["contentType"], field: "contentType", fail: fail)

        guard let attributesValue = fields["attributes"] else { throw fail(.missingField("attributes")) }
        guard case .object(let attributes) = attributesValue else {
            throw fail(.wrongType(field: "\"attributes\"", expected: "an object", found: attributesValue.kindName))
        }
        var set = SearchableItemAttributeSet(contentType: contentType)
        for (name, raw) in attributes.sorted(by: { $0.key < $1.key }) {
            let attribute = SearchableItemAttribute(rawValue: name)
            guard let kind = attribute.standardKind else { throw fail(.unknownAttribute(name)) }
            guard let value = try Self.attributeValue(raw, kind: kind, name: name, fail: fail) else { continue }
            set[attribute] = value
        }

        if let customValue = fields["custom"], customValue != .null {
            guard case .object(let custom) = customValue else {
                throw fail(.wrongType(field: "\"custom\"", expected: "an object", found: customValue.kindName))
            }
            for (name, raw) in custom.sorted(by: { $0.key < $1.key }) {
                guard let value = try Self.customValue(raw, name: name, fail: fail) else { continue }
                guard let key = CustomAttributeKey(keyName: name, searchableByDefault: value.kind == .string || value.kind == .strings,
                                                   multiValued: value.kind == .strings) else {
                    throw fail(.invalidCustomKey(name))
                }
                set.setValue(value, forCustomKey: key)
            }
        }
        return SearchableItem(uniqueIdentifier: id, domainIdentifier: domain, attributeSet: set)
    }

    private func optionalString(_ value: CorpusValue?, field: String,
                                fail: (CorpusProblem) -> CorpusReaderError) throws(CorpusReaderError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw fail(.wrongType(field: "\"\(field)\"", expected: "a string", found: other.kindName))
        }
    }

    /// A standard attribute's value, checked against its kind; nil for JSON null (no value).
    private static func attributeValue(_ raw: CorpusValue, kind: AttributeKind, name: String,
                                       fail: (CorpusProblem) -> CorpusReaderError) throws(CorpusReaderError) -> AttributeValue? {
        let field = "attribute \"\(name)\""
        switch (kind, raw) {
        case (_, .null): return nil
        case (_, .outOfRangeNumber(let text)): throw fail(.numberOutOfRange(field: field, text: text))
        case (.string, .string(let text)): return .string(text)
        case (.number, .number(let number)):
            if let bound = numberRanges[SearchableItemAttribute(rawValue: name)], !bound.range.contains(number) {
                throw fail(.valueOutOfRange(attribute: name, requirement: bound.requirement, found: written(number)))
            }
            return .number(number)
        case (.date, .string(let text)):
            switch CorpusDate.read(text) {
            case .date(let date): return .date(date)
            case .notADate: throw fail(.invalidDate(attribute: name, text: text))
            case .impossible(let reason): throw fail(.impossibleDate(field: field, text: text, reason: reason))
            }
        case (.strings, .array(let elements)):
            var strings: [String] = []
            for element in elements {
                guard case .string(let text) = element else {
                    throw fail(.wrongType(field: field, expected: "a list of strings", found: "a list holding \(element.kindName)"))
                }
                strings.append(text)
            }
            return .strings(strings)
        case (.string, _): throw fail(.wrongType(field: field, expected: "a string", found: raw.kindName))
        case (.number, _): throw fail(.wrongType(field: field, expected: "a number", found: raw.kindName))
        case (.date, _): throw fail(.wrongType(field: field, expected: "an ISO-8601 date string", found: raw.kindName))
        case (.strings, _): throw fail(.wrongType(field: field, expected: "a list of strings", found: raw.kindName))
        }
    }

    /// A custom value: its kind follows the JSON value; nil for JSON null.
    private static func customValue(_ raw: CorpusValue, name: String,
                                    fail: (CorpusProblem) -> CorpusReaderError) throws(CorpusReaderError) -> AttributeValue? {
        let field = "custom \"\(name)\""
        switch raw {
        case .null: return nil
        case .number(let number): return .number(number)
        case .outOfRangeNumber(let text): throw fail(.numberOutOfRange(field: field, text: text))
        case .string(let text):
            switch CorpusDate.read(text) {
            case .date(let date): return .date(date)
            case .notADate: return .string(text)
            case .impossible(let reason): throw fail(.impossibleDate(field: field, text: text, reason: reason))
            }
        case .array(let elements):
            let strings = elements.compactMap { if case .string(let text) = $0 { text } else { nil } }
            guard strings.count == elements.count else {
                throw fail(.wrongType(field: field, expected: "a string, a number, a date or a list of strings", found: "a list of mixed values"))
            }
            return .strings(strings)
        case .bool, .object:
            throw fail(.wrongType(field: field, expected: "a string, a number, a date or a list of strings", found: raw.kindName))
        }
    }

    /// The values a standard number attribute can take where its meaning bounds them, with
    /// the requirement an error states. The others (altitude, rating, rankingHint) take any
    /// finite number: Core Spotlight gives rating and rankingHint no scale, and an altitude
    /// may be below sea level.
    static let numberRanges: [SearchableItemAttribute: (range: ClosedRange<Double>, requirement: String)] = [
        .latitude: (-90...90, "from -90 to 90 (degrees)"),
        .longitude: (-180...180, "from -180 to 180 (degrees)"),
        .duration: (0...Double.greatestFiniteMagnitude, "0 or more (seconds)"),
        .fileSize: (0...Double.greatestFiniteMagnitude, "0 or more (bytes)"),
        .pageCount: (0...Double.greatestFiniteMagnitude, "0 or more (pages)"),
    ]

    /// A number as an error shows it: whole numbers without ".0", others as Swift writes them.
    private static func written(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
    }

    /// A one-line reason from a JSON decoding error.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}
