/// SQL text and the values bound to its `?` marks, built together so that a clause can never
/// lose or reorder its arguments (after GRDB's `SQL` and `SQLInterpolation`).
///
/// Written as a string literal with interpolations (see `SQLInterpolation`): a fragment
/// interpolated adds its text and its values where it stands, and a value interpolated adds `?`
/// and itself, so `"SELECT count(*) FROM items i WHERE \(condition) AND i.rating > \(2.5)"`
/// binds the condition's values, then 2.5. Only trusted text — the fixed schema's identifiers,
/// keywords — enters without binding, through `SQL(sql:)` or `\(sql:)`.
struct SQL: ExpressibleByStringInterpolation, Sendable {
    /// The text, with a `?` for each value.
    private(set) var text: String
    /// The values of the `?` marks, in textual order.
    private(set) var bindings: [SQLiteValue]

    /// Trusted text with no values: schema identifiers, keywords, function names.
    init(sql text: String) {
        self.text = text
        bindings = []
    }

    init(stringLiteral text: String) {
        self.init(sql: text)
    }

    init(stringInterpolation: SQLInterpolation) {
        text = stringInterpolation.text
        bindings = stringInterpolation.bindings
    }

    /// Appends `other`'s text and values.
    mutating func append(_ other: SQL) {
        text += other.text
        bindings += other.bindings
    }
}

extension Sequence<SQL> {
    /// The fragments one after the other with `separator` between them, their values in that order.
    func joined(separator: String) -> SQL {
        var result = SQL(sql: "")
        for (offset, fragment) in enumerated() {
            if offset > 0 { result.append(SQL(sql: separator)) }
            result.append(fragment)
        }
        return result
    }
}
