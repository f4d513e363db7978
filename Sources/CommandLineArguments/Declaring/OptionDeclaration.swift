/// An option as a value: name, value type, default and help together. A command declares one
/// inline (`@Option("max-tokens", .wholeNumber(atLeast: 1), help: "…") var maximumTokens: Int?`);
/// an option several tools take is declared once as a static member and used as
/// `@Option(.model) var model: String?`, so the tools cannot disagree on its spelling or default.
package struct OptionDeclaration<Value: Sendable>: Sendable {
    let argument: ArgumentDeclaration
    let defaultValue: Value
    /// The value from the words given for the option (one, or each of a repeatable one's), or
    /// the usage error for the first word that is no value.
    let read: @Sendable ([String]) -> Result<Value, UsageError>

    /// An option with a default, which help shows.
    package init(_ name: String, _ type: ArgumentType<Value>, default defaultValue: Value, help: String) {
        argument = ArgumentDeclaration(name: name, kind: .option(valueName: type.valueName, isRepeatable: false), help: help,
                                       defaultText: type.describe(defaultValue))
        self.defaultValue = defaultValue
        read = { words in type.value(of: words.last ?? "", for: name) }
    }

    /// An option that is nil unless given; its help says what its absence means.
    package init<Element>(_ name: String, _ type: ArgumentType<Element>, help: String) where Value == Element? {
        argument = ArgumentDeclaration(name: name, kind: .option(valueName: type.valueName, isRepeatable: false), help: help)
        defaultValue = nil
        read = { words in type.value(of: words.last ?? "", for: name).map { $0 } }
    }

    /// A repeatable option: every value given, in order; empty when it is not given.
    package init<Element>(_ name: String, _ type: ArgumentType<Element>, help: String) where Value == [Element] {
        argument = ArgumentDeclaration(name: name, kind: .option(valueName: type.valueName, isRepeatable: true), help: help)
        defaultValue = []
        read = { words in
            var values: [Element] = []
            for word in words {
                switch type.value(of: word, for: name) {
                case .success(let value): values.append(value)
                case .failure(let error): return .failure(error)
                }
            }
            return .success(values)
        }
    }
}
