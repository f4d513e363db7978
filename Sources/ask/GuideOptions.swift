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

    let level: SearchSetup.GuideLevel
    let format: FormatLevel

    init(_ arguments: ParsedArguments) throws(UsageError) {
        level = try arguments.choice("guide", in: SearchSetup.GuideLevel.allCases.map(\.rawValue))
            .flatMap(SearchSetup.GuideLevel.init(rawValue:)) ?? .focused
        format = try arguments.choice("format", in: ["compact", "structured"]) == "compact" ? .compact : .structured
    }
}
