import SearchTool

/// `--guide` and `--format`: how much of the query language the search tool offers, and how its
/// results read. `ask` and `eval` take them from here, so an evaluation measures what a user
/// runs by default. Focused is the default because the default model is small (135M
/// parameters, 8K window); complete suits larger models.
package struct GuideOptions: ParsableArguments {
    @Option("guide", .choice, help: "How much query language the search tool offers.")
    package var level: SearchSetup.GuideLevel = .focused

    @Option("format", .format, help: "How tool results and descriptions read.")
    package var format: FormatLevel = .structured

    package init() {}
}
