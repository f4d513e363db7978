import Foundation
import LocalModel

/// Scores a call against a case's acceptable calls by its abstract syntax, as function-calling
/// benchmarks usually do: the function name must match, every required argument must be
/// present with an acceptable value, no argument the expected call does not know may appear,
/// and an optional argument must be absent or acceptable. Values compare by meaning, not text:
/// strings case-insensitively after trimming, numbers by value (within a tolerance when the
/// case gives one), arrays and objects member by member by the same rules.
public struct FunctionCallScorer: Sendable {
    /// Why a call is not one of the acceptable ones.
    public enum Mismatch: Sendable, Hashable, CustomStringConvertible {
        /// The call names another function than every acceptable call.
        case wrongFunction(String)
        /// The arguments are not a JSON object.
        case argumentsNotAnObject
        /// A required argument is absent.
        case missingArgument(String)
        /// An argument the acceptable call does not have.
        case unexpectedArgument(String)
        /// An argument whose value is none of the acceptable ones.
        case unacceptableValue(argument: String, value: JSONValue)

        public var description: String {
            switch self {
            case .wrongFunction(let name): "called \(name), which no acceptable call names"
            case .argumentsNotAnObject: "the arguments are not an object"
            case .missingArgument(let name): "the required argument \(name) is missing"
            case .unexpectedArgument(let name): "the argument \(name) is not expected"
            case let .unacceptableValue(name, value): "\(name) = \(value.jsonString) is not an acceptable value"
            }
        }
    }

    public init() {}

    /// nil when the call matches one of `calls`; otherwise why it does not match the first one
    /// with its function name (or `wrongFunction` when none has it).
    public func mismatch(toolName: String, arguments: JSONValue, against calls: [FunctionCallCase.ExpectedCall]) -> Mismatch? {
        let candidates = calls.filter { $0.name == toolName }
        guard !candidates.isEmpty else { return .wrongFunction(toolName) }
        var first: Mismatch?
        for candidate in candidates {
            guard let mismatch = mismatch(arguments: arguments, against: candidate) else { return nil }
            if first == nil { first = mismatch }
        }
        return first
    }

    private func mismatch(arguments: JSONValue, against call: FunctionCallCase.ExpectedCall) -> Mismatch? {
        guard case .object(let given) = arguments else { return .argumentsNotAnObject }
        for (name, _) in given where call.arguments[name] == nil {
            return .unexpectedArgument(name)
        }
        for (name, acceptable) in call.arguments.sorted(by: { $0.key < $1.key }) {
            guard let value = given[name] else {
                if acceptable.optional { continue }
                return .missingArgument(name)
            }
            if !accepts(value, acceptable) { return .unacceptableValue(argument: name, value: value) }
        }
        return nil
    }

    /// Whether `value` is one of the acceptable values.
    public func accepts(_ value: JSONValue, _ acceptable: FunctionCallCase.AcceptableValues) -> Bool {
        acceptable.values.contains { matches(value, $0, tolerance: acceptable.tolerance ?? 0) }
    }

    private func matches(_ value: JSONValue, _ expected: JSONValue, tolerance: Double) -> Bool {
        switch (value, expected) {
        case (.string(let a), .string(let b)):
            return Self.normalized(a) == Self.normalized(b)
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
            guard let a = value.doubleValue, let b = expected.doubleValue else { return false }
            return value == expected || abs(a - b) <= tolerance
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1, tolerance: tolerance) }
        case (.object(let a), .object(let b)):
            return Set(a.keys) == Set(b.keys) && b.allSatisfy { key, member in
                a[key].map { matches($0, member, tolerance: tolerance) } ?? false
            }
        default:
            return value == expected
        }
    }

    private static func normalized(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
