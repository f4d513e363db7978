/// `--name VALUE`: a property whose value is read from the command line, typed by its declaration.
///
///     @Option("max-tokens", .wholeNumber(atLeast: 1), help: "Most tokens per round.") var maximumTokens: Int?
///     @Option("repeat", .wholeNumber(in: 1...1000), help: "Runs per sample.") var repetitions = 1
///     @Option("image", .text("FILE"), help: "Attach an image (repeatable).") var images: [String]
///     @Option(.model) var model: String?
///
/// An optional property is nil unless given, a property with a default shows it in help, an
/// array property is repeatable.
@propertyWrapper
package struct Option<Value: Sendable>: Sendable, DeclaresArguments {
    package let wrappedValue: Value
    let declaration: ArgumentDeclaration
    let failure: UsageError?

    package init(_ declaration: OptionDeclaration<Value>) {
        self.declaration = declaration.argument
        let given: [String]? = ParsedWords.current?.values[declaration.argument.name]
        switch given.map(declaration.read) {
        case .success(let value)?:
            wrappedValue = value
            failure = nil
        case .failure(let error)?:
            wrappedValue = declaration.defaultValue
            failure = error
        case nil:
            wrappedValue = declaration.defaultValue
            failure = nil
        }
    }

    package init(wrappedValue: Value, _ name: String, _ type: ArgumentType<Value>, help: String) {
        self.init(OptionDeclaration(name, type, default: wrappedValue, help: help))
    }

    package init<Element>(_ name: String, _ type: ArgumentType<Element>, help: String) where Value == Element? {
        self.init(OptionDeclaration(name, type, help: help))
    }

    package init<Element>(_ name: String, _ type: ArgumentType<Element>, help: String) where Value == [Element] {
        self.init(OptionDeclaration(name, type, help: help))
    }

    var declarations: [ArgumentDeclaration] { [declaration] }
    var failures: [UsageError] { failure.map { [$0] } ?? [] }
}
