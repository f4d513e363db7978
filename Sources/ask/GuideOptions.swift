import SearchIndex
import SearchTool

/// `--guide` and `--format`: how much of the query language the search tool offers, and how its
/// results read. Focused is the default because the default model is small (135M parameters,
/// 8K window); complete suits larger models.
struct GuideOptions: Sendable {
    static let options: [CommandSpec.Option] = [
        .value("guide", "focused|complete|dynamic", "How much query language the search tool offers (default: focused)."),
        .value("format", "compact|structured", "How tool results and descriptions read (default: structured)."),
    ]

    enum Level: String, Sendable { case focused, complete, dynamic }

    let level: Level
    let format: FormatLevel

    init(_ arguments: ParsedArguments) throws(UsageError) {
        level = try arguments.choice("guide", in: ["focused", "complete", "dynamic"]).flatMap(Level.init(rawValue:)) ?? .focused
        format = try arguments.choice("format", in: ["compact", "structured"]) == "compact" ? .compact : .structured
    }

    /// The guide for an index: focused on documents for a folder, on items otherwise; dynamic
    /// offers filters on exactly the attributes the model sees.
    func guide(isFolder: Bool, attributes: [SearchableItemAttribute]) -> Guide {
        switch level {
        case .focused: Guide(level: .focused(isFolder ? .documents : .items), format: format)
        case .complete: Guide(level: .complete, format: format)
        case .dynamic: Guide(level: .dynamic(GuidanceProfile(attributes: attributes)), format: format)
        }
    }
}
