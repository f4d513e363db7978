/// How much of the query language the tool offers, and how its results read (Apple's
/// `SpotlightSearchTool.Guide`).
///
/// The guide decides the capabilities of the one query schema, and that schema produces both the
/// description the model reads and the grammar that constrains it, so each guide's cost in
/// tokens is also the size of what the model may write.
public struct Guide: Sendable, Hashable {
    public var level: GuidanceLevel
    public var format: FormatLevel

    public init(level: GuidanceLevel = .complete, format: FormatLevel = .structured) {
        self.level = level
        self.format = format
    }

    /// Every capability: for larger models and windows of 8K and more.
    public static let complete = Guide(level: .complete)
    /// Text match and dates over one content domain's attributes, plus the sources'
    /// `fetchAttributes`: the guide for small models (Apple's on-device choice).
    public static func focused(_ domain: ContentDomain = .items) -> Guide { Guide(level: .focused(domain)) }
    /// Exactly the capabilities a profile switches on.
    public static func dynamic(_ profile: GuidanceProfile) -> Guide { Guide(level: .dynamic(profile)) }
}
