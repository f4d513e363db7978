import SearchIndex

/// A filter's `op`, as the model writes it. Each operator belongs to one kind of filter, and
/// the schema offers and the reader accepts exactly the operators of that kind.
package enum FilterOperator: String, Sendable, CaseIterable, CustomStringConvertible {
    case `is`, contains
    case equal = "=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case includes

    /// The kinds of filter, by the attributes they apply to.
    package enum Kind: Sendable {
        /// `is` matches a string attribute's whole value, `contains` a part of it.
        case text
        /// A comparison with a number, in the attribute's unit.
        case number
        /// A person among authors or recipients (`includes`, with "me" resolved).
        case person
    }

    package var kind: Kind {
        switch self {
        case .is, .contains: .text
        case .equal, .less, .lessOrEqual, .greater, .greaterOrEqual: .number
        case .includes: .person
        }
    }

    /// The operators of one kind, in declaration order.
    package static func of(_ kind: Kind) -> [FilterOperator] { allCases.filter { $0.kind == kind } }

    /// The index's comparison for a number operator (the model writes `=`, SQL's `==`).
    var comparison: ComparisonOperator? {
        switch self {
        case .equal: .equal
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        case .is, .contains, .includes: nil
        }
    }

    package var description: String { rawValue }
}
