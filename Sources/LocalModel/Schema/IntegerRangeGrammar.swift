/// GBNF for "a whole number from `low` to `high`", exactly, as digit-structured alternatives.
///
/// The classic range-splitting construction: [1, 123] becomes `[1-9] | [1-9] [0-9] |
/// "1" [0-1] [0-9] | "12" [0-3]`. Each alternative has a fixed digit count, so no leading
/// zeros and no overlap, and a small model cannot write a number outside the range.
enum IntegerRangeGrammar {
    /// The largest magnitude handled (18 digits), so arithmetic on bounds cannot overflow.
    static let largestMagnitude = 999_999_999_999_999_999

    /// Alternatives (joined with `|`) for the integers in `low...high`, as written in JSON.
    /// Bounds are clamped to ±`largestMagnitude`.
    static func expression(low: Int, high: Int) -> String {
        let low = max(low, -largestMagnitude)
        let high = min(high, largestMagnitude)
        var alternatives: [String] = []
        if low < 0 {
            let magnitudes = positive(from: max(1, high < 0 ? -high : 1), to: -low)
            alternatives.append("\"-\" " + GBNF.group(magnitudes.joined(separator: " | ")))
        }
        if low <= 0 && high >= 0 { alternatives.append("\"0\"") }
        if high >= 1 { alternatives += positive(from: max(low, 1), to: high) }
        return alternatives.joined(separator: " | ")
    }

    /// Alternatives for `from...to`, both at least 1.
    static func positive(from low: Int, to high: Int) -> [String] {
        var starts = low
        var alternatives: [String] = []
        for stop in stops(low, high) {
            alternatives.append(pattern(starts, stop))
            starts = stop + 1
        }
        return alternatives
    }

    /// The ends of sub-ranges that each share a digit count and a prefix.
    private static func stops(_ low: Int, _ high: Int) -> [Int] {
        var stops: Set<Int> = [high]
        var nines = 1
        var stop = fillNines(low, nines)
        while low <= stop && stop <= high {
            stops.insert(stop)
            nines += 1
            stop = fillNines(low, nines)
        }
        var zeros = 1
        stop = clearDigits(high + 1, zeros) - 1
        while low < stop && stop <= high {
            stops.insert(stop)
            zeros += 1
            stop = clearDigits(high + 1, zeros) - 1
        }
        return stops.sorted()
    }

    /// `n` with its last `count` digits replaced by 9s (all 9s when `count` covers it).
    private static func fillNines(_ n: Int, _ count: Int) -> Int {
        let digits = String(n)
        if count >= digits.count { return count > 18 ? Int.max : power(count) - 1 }
        return Int(digits.dropLast(count) + String(repeating: "9", count: count)) ?? Int.max
    }

    /// `n` with its last `count` digits set to 0.
    private static func clearDigits(_ n: Int, _ count: Int) -> Int {
        count > 18 ? 0 : n - n % power(count)
    }

    private static func power(_ exponent: Int) -> Int {
        var p = 1
        for _ in 0..<exponent { p *= 10 }
        return p
    }

    /// One alternative for `start...stop` of equal digit count: shared digits literally, then
    /// one class, then free digits.
    private static func pattern(_ start: Int, _ stop: Int) -> String {
        let a = Array(String(start)), b = Array(String(stop))
        var prefix = ""
        var terms: [String] = []
        var freeDigits = 0
        for (x, y) in zip(a, b) {
            if x == y && terms.isEmpty && freeDigits == 0 {
                prefix.append(x)
            } else if x == "0" && y == "9" {
                freeDigits += 1
            } else {
                terms.append("[\(x)-\(y)]")
            }
        }
        if !prefix.isEmpty { terms.insert(GBNF.literal(prefix), at: 0) }
        terms.append(GBNF.repeated("[0-9]", minimum: freeDigits, maximum: freeDigits))
        return GBNF.sequence(terms)
    }
}

extension IntegerRangeGrammar {
    /// 10 to the power `exponent` (at most 18).
    static func power10(_ exponent: Int) -> Int { power(min(exponent, 18)) }
}
