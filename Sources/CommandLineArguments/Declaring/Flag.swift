/// `--name`: a property that is true when the flag is given (`@Flag("json", help: "…") var json: Bool`).
/// A flag takes no value: `--json=yes` is a usage error.
@propertyWrapper
package struct Flag: Sendable, DeclaresArguments {
    package let wrappedValue: Bool
    let declaration: ArgumentDeclaration

    package init(_ name: String, help: String) {
        declaration = ArgumentDeclaration(name: name, kind: .flag, help: help)
        wrappedValue = ParsedWords.current?.flags.contains(name) ?? false
    }

    var declarations: [ArgumentDeclaration] { [declaration] }
    var failures: [UsageError] { [] }
}
