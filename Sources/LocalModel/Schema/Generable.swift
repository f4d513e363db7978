/// A type that can be made from generated content (Apple's protocol of the same name).
///
/// Decodable types get the conformance for free: the content is decoded like JSON.
public protocol ConvertibleFromGeneratedContent {
    init(_ content: GeneratedContent) throws
}

/// A type that can describe itself as generated content (Apple's protocol of the same name).
///
/// Apple's `generatedContent` cannot fail; ours can throw, because an `Encodable` value may
/// hold something JSON cannot write (a non-finite Double) and that should not pass silently.
/// Encodable types get the conformance for free.
public protocol ConvertibleToGeneratedContent {
    var generatedContent: GeneratedContent { get throws }
}

/// A type a model can generate: its schema drives the grammar and the prompt, and the result
/// decodes into the type (Apple's `Generable`, without the macro).
///
/// ```swift
/// struct Hike: Generable, Codable {
///     var trail: String
///     var stars: Int
///     static let generationSchema: GenerationSchema = .object([
///         .property("trail", .string(description: "Trail name", maxLength: 40)),
///         .property("stars", .integer(in: 1...5)),
///     ])
/// }
/// ```
public protocol Generable: ConvertibleFromGeneratedContent, ConvertibleToGeneratedContent {
    static var generationSchema: GenerationSchema { get }
}

extension ConvertibleFromGeneratedContent where Self: Decodable {
    /// Decodes the content; throws `JSONCodingError` naming the type, the path and the content.
    public init(_ content: GeneratedContent) throws {
        self = try content.decode(as: Self.self)
    }
}

extension ConvertibleToGeneratedContent where Self: Encodable {
    /// The value encoded as JSON (keys sorted); throws `JSONCodingError` if it cannot be.
    public var generatedContent: GeneratedContent {
        get throws { try JSONValue(encoding: self) }
    }
}

extension Generable where Self: CaseIterable & RawRepresentable, RawValue == String {
    /// One of the cases' raw values (Apple's `@Generable enum`): declaring the conformance on
    /// a `String`-backed, `CaseIterable`, `Codable` enum is all it takes.
    public static var generationSchema: GenerationSchema { .string(anyOf: allCases.map(\.rawValue)) }
}
