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
}
