/// How `SQL` literals read their interpolations: `\(fragment)` for an `SQL` fragment (its text
/// and values), `\(value)` for a value to bind (`?` in the text), `\(values: list)` for a
/// comma-separated list of them, `\(sql: text)` for trusted text bound to nothing.
struct SQLInterpolation: StringInterpolationProtocol {
    fileprivate(set) var text: String
    fileprivate(set) var bindings: [SQLiteValue] = []

    init(literalCapacity: Int, interpolationCount: Int) {
        text = ""
        text.reserveCapacity(literalCapacity + interpolationCount)
    }

    mutating func appendLiteral(_ literal: String) { text += literal }

    /// A fragment: its text here, its values in their place among the others.
    mutating func appendInterpolation(_ fragment: SQL) {
        text += fragment.text
        bindings += fragment.bindings
    }

    /// A value, bound: `?` in the text.
    mutating func appendInterpolation(_ value: SQLiteValue) {
        text += "?"
        bindings.append(value)
    }

    mutating func appendInterpolation(_ text: String) { appendInterpolation(SQLiteValue.text(text)) }

    mutating func appendInterpolation(_ number: Int64) { appendInterpolation(SQLiteValue.integer(number)) }

    mutating func appendInterpolation(_ number: Int) { appendInterpolation(SQLiteValue.integer(Int64(number))) }

    mutating func appendInterpolation(_ number: Double) { appendInterpolation(SQLiteValue.real(number)) }

    /// Values bound one by one, their marks separated by `separator` (`?, ?, ?`).
    mutating func appendInterpolation(values: [SQLiteValue], separator: String = ", ") {
        for (offset, value) in values.enumerated() {
            if offset > 0 { text += separator }
            appendInterpolation(value)
        }
    }

    /// Trusted text, bound to nothing: an identifier of the fixed schema, a keyword.
    mutating func appendInterpolation(sql text: String) { self.text += text }
}
