/// A set of options read from the command line: a struct whose properties are declared with
/// `@Option`, `@Flag`, `@Argument` and `@OptionGroup`, each with its name, type, default and
/// help on one line, as in swift-argument-parser. Reading a value back is reading the property,
/// already typed and checked, so no command looks an option up by its name.
///
/// Lantern takes no package dependencies, so this layer is written here; `ask`, `eval` and
/// `bench` share it, and with it the spelling, default and help of the options they have in common.
package protocol ParsableArguments: Sendable {
    /// Every property at its declared default; while `ParsableCommand.parse` runs, each property
    /// wrapper takes its value from the words being parsed instead.
    init()
}

extension ParsableArguments {
    /// Every argument the properties declare, in declaration order, groups in place.
    var declarations: [ArgumentDeclaration] {
        Mirror(reflecting: self).children.flatMap { ($0.value as? any DeclaresArguments)?.declarations ?? [] }
    }

    /// The words that were no value of their option's type, in declaration order.
    var failures: [UsageError] {
        Mirror(reflecting: self).children.flatMap { ($0.value as? any DeclaresArguments)?.failures ?? [] }
    }
}

/// What a property wrapper shows the parser and the help, found through `Mirror`.
protocol DeclaresArguments {
    var declarations: [ArgumentDeclaration] { get }
    var failures: [UsageError] { get }
}
