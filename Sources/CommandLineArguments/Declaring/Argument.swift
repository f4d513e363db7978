/// The words that are no option, in order (`@Argument("QUESTION", help: "…") var words: [String]`).
/// A command that declares none refuses them ("unexpected argument 'extra'").
@propertyWrapper
package struct Argument: Sendable, DeclaresArguments {
    package let wrappedValue: [String]
    let declaration: ArgumentDeclaration

    /// `name` is how usage shows the words ("QUESTION").
    package init(_ name: String, help: String) {
        declaration = ArgumentDeclaration(name: name, kind: .positional, help: help)
        wrappedValue = ParsedWords.current?.positionals ?? []
    }

    var declarations: [ArgumentDeclaration] { [declaration] }
    var failures: [UsageError] { [] }
}
