/// Locale-independent number text for tables and error messages: "6,012", "14.6%".
///
/// Written by hand rather than with `NumberFormatter` so output is identical on every machine
/// and in every locale (tests and `--json` consumers can rely on it).
enum NumberText {
    /// The integer with a comma between each group of three digits: `-12,345`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// A share (1.0 = 100%) as a percentage, rounded to `decimals` places (0 or 1).
    static func percent(_ share: Double, decimals: Int) -> String {
        let scale = decimals > 0 ? 10 : 1
        let scaled = Int((share * 100 * Double(scale)).rounded())
        let whole = grouped(scaled / scale)
        return decimals > 0 ? "\(whole).\(abs(scaled % scale))%" : "\(whole)%"
    }

    /// "4K (4,096)" for preset-like sizes, "6,000" otherwise.
    static func window(_ window: ContextWindow) -> String {
        let count = grouped(window.tokens)
        return window.tokens % 1024 == 0 ? "\(window) (\(count))" : count
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String], conjunction: String = "and") -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}
