/// GBNF for "a number from `low` to `high` with at most `fractionDigits` digits after the
/// point", exactly: every text the grammar accepts reads (as a `Double`) inside the bounds,
/// inclusive or exclusive, and every such number on that grid can be written.
///
/// A bound becomes a whole count of steps of 10^-`fractionDigits` (the first step whose text
/// reads inside the bound, so `0.1` stays `0.1` although `0.1` is not exact in binary), and the
/// steps from one count to the other are written as a whole part and a fraction: the first and
/// last whole part constrain the fraction digit by digit, as `IntegerRangeGrammar` does for
/// digits of whole numbers, and the whole parts between them take any fraction.
enum DecimalRangeGrammar {
    /// Alternatives (joined with `|`) for the numbers between the bounds, nil when the bounds
    /// leave none or are too large to count in steps (the caller then falls back to whole bounds).
    static func expression(low: Bound?, high: Bound?, fractionDigits: Int, largestWhole: Int) -> String? {
        guard fractionDigits <= 6, largestWhole <= 999_999_999_999 else { return nil }
        let scale = IntegerRangeGrammar.power10(fractionDigits)
        let cap = (largestWhole + 1) * scale - 1
        guard let first = low.map({ steps(atLeast: $0, scale: scale, fractionDigits: fractionDigits) }) ?? -cap,
              let last = high.map({ steps(atMost: $0, scale: scale, fractionDigits: fractionDigits) }) ?? cap else { return nil }
        let lowest = max(first, -cap), highest = min(last, cap)
        guard lowest <= highest else { return nil }
        let writer = Writer(scale: scale, fractionDigits: fractionDigits)
        var alternatives: [String] = []
        if lowest < 0 {
            // "-0" only where zero itself is not written by the other side.
            alternatives.append("\"-\" " + GBNF.group(writer.magnitudes(from: highest >= 0 ? 1 : -highest, to: -lowest)))
        }
        if highest >= 0 { alternatives.append(writer.magnitudes(from: max(lowest, 0), to: highest)) }
        return alternatives.joined(separator: " | ")
    }

    /// A bound of the schema, and whether the number may equal it.
    struct Bound {
        var value: Double
        var isInclusive: Bool
    }

    /// The smallest count of steps whose text reads at or above (strictly above, for an
    /// exclusive bound) the bound; nil when it does not fit in `Int`.
    private static func steps(atLeast bound: Bound, scale: Int, fractionDigits: Int) -> Int? {
        let scaled = (bound.value * Double(scale)).rounded()
        guard abs(scaled) < 9e15 else { return nil }
        let inside = { (count: Int) in
            let value = Double(text(count, fractionDigits: fractionDigits))!
            return bound.isInclusive ? value >= bound.value : value > bound.value
        }
        return (Int(scaled) - 2...Int(scaled) + 2).first(where: inside)
    }

    /// The largest count of steps whose text reads at or below (strictly below) the bound.
    private static func steps(atMost bound: Bound, scale: Int, fractionDigits: Int) -> Int? {
        steps(atLeast: Bound(value: -bound.value, isInclusive: bound.isInclusive), scale: scale, fractionDigits: fractionDigits).map { -$0 }
    }

    /// The number `count` steps from zero, written out in full (`-12.500000`).
    private static func text(_ count: Int, fractionDigits: Int) -> String {
        let scale = IntegerRangeGrammar.power10(fractionDigits)
        let whole = String(abs(count) / scale)
        let fraction = String(abs(count) % scale)
        let sign = count < 0 ? "-" : ""
        guard fractionDigits > 0 else { return sign + whole }
        return sign + whole + "." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
    }

    /// Writes the texts of magnitudes given in steps.
    private struct Writer {
        let scale: Int
        let fractionDigits: Int

        /// Alternatives for the magnitudes `from...to` (steps, both at least 0).
        func magnitudes(from low: Int, to high: Int) -> String {
            let (lowWhole, lowFraction) = split(low), (highWhole, highFraction) = split(high)
            if lowWhole == highWhole {
                return GBNF.sequence([GBNF.literal(String(lowWhole)), fraction(between: lowFraction, and: highFraction)])
            }
            var alternatives = [GBNF.sequence([GBNF.literal(String(lowWhole)), fraction(between: lowFraction, and: nil)])]
            if lowWhole + 1 <= highWhole - 1 {
                let wholes = IntegerRangeGrammar.expression(low: lowWhole + 1, high: highWhole - 1)
                alternatives.append(GBNF.sequence([GBNF.group(wholes), fraction(between: nil, and: nil)]))
            }
            alternatives.append(GBNF.sequence([GBNF.literal(String(highWhole)), fraction(between: nil, and: highFraction)]))
            return alternatives.joined(separator: " | ")
        }

        /// The whole part and the fraction digits (`fractionDigits` of them) of a magnitude.
        private func split(_ steps: Int) -> (whole: Int, fraction: [Int]) {
            var rest = steps % scale
            var digits = [Int](repeating: 0, count: fractionDigits)
            for index in digits.indices.reversed() {
                digits[index] = rest % 10
                rest /= 10
            }
            return (steps / scale, digits)
        }

        /// The optional `.digits` part whose value (padded with zeros) lies between the two
        /// (nil: no bound on that side).
        private func fraction(between low: [Int]?, and high: [Int]?) -> String {
            guard fractionDigits > 0 else { return "" }
            let digits = tail(from: 0, low: low, high: high)
            // No fraction at all reads as zero: allowed when the low side allows zero.
            let mayOmit = low.map { $0.allSatisfy { $0 == 0 } } ?? true
            return mayOmit ? "(\".\" " + digits + ")?" : "\".\" " + digits
        }

        /// Digits from `position` on, at least one, given that the digits before it equal
        /// `low`'s (when given) and `high`'s (when given).
        private func tail(from position: Int, low: [Int]?, high: [Int]?) -> String {
            var alternatives: [String] = []
            // A digit strictly between the bounds' digits leaves the rest free.
            let firstFree = low.map { $0[position] + 1 } ?? 0, lastFree = high.map { $0[position] - 1 } ?? 9
            if firstFree <= lastFree {
                let digit = firstFree == lastFree ? GBNF.literal(String(firstFree)) : "[\(firstFree)-\(lastFree)]"
                alternatives.append(GBNF.sequence([digit, GBNF.repeated("[0-9]", minimum: 0, maximum: fractionDigits - position - 1)]))
            }
            // A digit equal to a bound's digit keeps that bound for the digits after it.
            if let low, let high, low[position] == high[position] {
                alternatives.append(edge(position, digit: low[position], low: low, high: high))
            } else {
                if let low { alternatives.append(edge(position, digit: low[position], low: low, high: nil)) }
                if let high { alternatives.append(edge(position, digit: high[position], low: nil, high: high)) }
            }
            return GBNF.group(alternatives.joined(separator: " | "))
        }

        /// `digit`, then the digits the bounds still allow; stopping after it pads with zeros,
        /// fine unless the low bound has non-zero digits further on.
        private func edge(_ position: Int, digit: Int, low: [Int]?, high: [Int]?) -> String {
            let literal = GBNF.literal(String(digit))
            guard position + 1 < fractionDigits else { return literal }
            let rest = tail(from: position + 1, low: low, high: high)
            let mayStop = low.map { $0[(position + 1)...].allSatisfy { $0 == 0 } } ?? true
            return GBNF.sequence([literal, mayStop ? "(" + rest + ")?" : rest])
        }
    }
}
