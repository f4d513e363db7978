import Foundation

/// What an option's value looks like on the command line: the placeholder shown in usage ("N",
/// "FILE.gguf", "focused|complete|dynamic"), how a word becomes the value, and what a word that
/// is no such value is told, which completes "--threads needs a whole number of 1 or more, not 'many'".
package struct ArgumentType<Element: Sendable>: Sendable {
    /// The placeholder in usage and help.
    package let valueName: String
    /// What the option needs, said after its name when a word is no value of this type.
    package let requirement: String
    let read: @Sendable (String) -> Element?
    /// How a default value reads in help ("focused", "1").
    let describe: @Sendable (Element) -> String

    package init(valueName: String, requirement: String, describe: @escaping @Sendable (Element) -> String = { "\($0)" },
                 read: @escaping @Sendable (String) -> Element?) {
        self.valueName = valueName
        self.requirement = requirement
        self.describe = describe
        self.read = read
    }

    /// The same type shown as `valueName` in usage, for a placeholder too long to read there
    /// (`--section NAME` rather than every section's name).
    package func named(_ valueName: String) -> Self {
        Self(valueName: valueName, requirement: requirement, describe: describe, read: read)
    }

    /// The value of `word`, or the usage error that names the option, what it needs and the word.
    func value(of word: String, for name: String) -> Result<Element, UsageError> {
        guard let value = read(word) else { return .failure(UsageError("--\(name) \(requirement), not '\(word)'")) }
        return .success(value)
    }
}

extension ArgumentType where Element == String {
    /// Any word: a path, a name; `valueName` says which.
    package static func text(_ valueName: String) -> Self {
        Self(valueName: valueName, requirement: "needs a value", read: { $0 })
    }
}

extension ArgumentType where Element: FixedWidthInteger {
    /// A whole number in `range`; the requirement names both ends.
    package static func wholeNumber(in range: ClosedRange<Element> = Element.min...Element.max) -> Self {
        Self(valueName: "N", requirement: "needs a whole number from \(range.lowerBound) to \(range.upperBound)",
             read: { Element($0).flatMap { range.contains($0) ? $0 : nil } })
    }

    /// A whole number of `minimum` or more.
    package static func wholeNumber(atLeast minimum: Element) -> Self {
        Self(valueName: "N", requirement: "needs a whole number of \(minimum) or more",
             read: { Element($0).flatMap { $0 >= minimum ? $0 : nil } })
    }
}

extension ArgumentType where Element == Double {
    /// A number in `range`, such as a share from 0 to 1.
    package static func number(in range: ClosedRange<Double>) -> Self {
        let ends = [range.lowerBound, range.upperBound].map { String(format: "%g", $0) }
        return Self(valueName: "X", requirement: "needs a number from \(ends[0]) to \(ends[1])",
                    read: { Double($0).flatMap { range.contains($0) ? $0 : nil } })
    }
}

extension ArgumentType where Element: Equatable {
    /// One of a fixed set of words, each standing for a value; the placeholder lists them.
    package static func oneOf(_ choices: [(word: String, value: Element)]) -> Self {
        let words = choices.map(\.word)
        return Self(valueName: words.joined(separator: "|"), requirement: "must be one of \(words.joined(separator: ", "))",
                    describe: { value in choices.first { $0.value == value }?.word ?? "\(value)" },
                    read: { word in choices.first { $0.word == word }?.value })
    }
}

extension ArgumentType where Element: CaseIterable & RawRepresentable & Equatable, Element.RawValue == String {
    /// One of the enumeration's cases, spelled as its raw value.
    package static var choice: Self { .oneOf(Element.allCases.map { ($0.rawValue, $0) }) }
}
