import Foundation
import Synchronization

/// A query-string value pattern: `*` matches any run of characters, `?` any one character (as in
/// Apple's File Metadata Query Expression Syntax), `\` escapes the next one;
/// flags `c` (case-insensitive), `d` (diacritic-insensitive) and `w` (match any word of the value)
/// follow Core Spotlight's modifiers (`t`, tokenized, is treated as `w`).
///
/// Evaluated inside SQLite through the `lantern_match` function for matches that plain SQL
/// comparisons cannot express.
struct StringPattern: Sendable {
    enum Token: Sendable, Equatable {
        case literal(Unicode.Scalar), anything, one

        var isWildcard: Bool { self == .anything || self == .one }
    }

    let tokens: [Token]
    let caseInsensitive: Bool
    let diacriticInsensitive: Bool
    let wordBased: Bool
    /// `l`: the value is a U+001F-joined list; any element may match.
    let listBased: Bool

    init(_ pattern: String, flags: String) {
        let caseInsensitive = flags.contains("c"), diacriticInsensitive = flags.contains("d")
        self.caseInsensitive = caseInsensitive
        self.diacriticInsensitive = diacriticInsensitive
        wordBased = flags.contains("w") || flags.contains("t")
        listBased = flags.contains("l")
        var tokens: [Token] = []
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                tokens.append(.literal(scalar))
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "*" {
                if tokens.last != .anything { tokens.append(.anything) }
            } else if scalar == "?" {
                tokens.append(.one)
            } else {
                tokens.append(.literal(scalar))
            }
        }
        // Re-thread folded literals back between the wildcards.
        if caseInsensitive || diacriticInsensitive {
            var rebuilt: [Token] = []
            var literals = Self.splitOnWildcards(tokens).map { run in
                Self.fold(String(String.UnicodeScalarView(run)), caseInsensitive: caseInsensitive,
                          diacriticInsensitive: diacriticInsensitive)
            }.makeIterator()
            var inRun = false
            for token in tokens {
                if token.isWildcard {
                    rebuilt.append(token)
                    inRun = false
                } else if !inRun {
                    inRun = true
                    rebuilt += (literals.next() ?? "").unicodeScalars.map(Token.literal)
                }
            }
            self.tokens = rebuilt
        } else {
            self.tokens = tokens
        }
    }

    private static func splitOnWildcards(_ tokens: [Token]) -> [[Unicode.Scalar]] {
        var runs: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar]?
        for token in tokens {
            switch token {
            case .anything, .one:
                if let run = current { runs.append(run) }
                current = nil
            case .literal(let scalar):
                current = (current ?? []) + [scalar]
            }
        }
        if let run = current { runs.append(run) }
        return runs
    }

    static func fold(_ text: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        if options.isEmpty { return text }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return caseInsensitive ? text.lowercased() : text
        }
        return text.folding(options: options, locale: nil)
    }

    func matches(_ value: String) -> Bool {
        if listBased {
            return value.split(separator: IndexSchema.listSeparator).contains { matchesOne(String($0)) }
        }
        return matchesOne(value)
    }

    private func matchesOne(_ value: String) -> Bool {
        let folded = Self.fold(value, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
        let scalars = Array(folded.unicodeScalars)
        if !wordBased { return Self.match(tokens[...], scalars[...]) }
        var start = 0
        for index in 0...scalars.count where index == scalars.count || !Self.isWordScalar(scalars[index]) {
            if index > start, Self.match(tokens[...], scalars[start..<index]) { return true }
            start = index + 1
        }
        return false
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_"
    }

    /// `text` with `*`, `?` and `\\` escaped, for use as a literal inside a pattern.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "*" || character == "?" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// Glob matching with backtracking on the last `*` (linear in practice).
    private static func match(_ pattern: ArraySlice<Token>, _ text: ArraySlice<Unicode.Scalar>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var starP: Int?, starT = 0
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == .one {
                p += 1; t += 1
            } else if p < pattern.endIndex, case .literal(let scalar) = pattern[p], scalar == text[t] {
                p += 1; t += 1
            } else if p < pattern.endIndex, pattern[p] == .anything {
                starP = p; starT = t; p += 1
            } else if let star = starP {
                p = star + 1; starT += 1; t = starT
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == .anything { p += 1 }
        return p == pattern.endIndex
    }

    private static let cache = Mutex<[String: StringPattern]>([:])

    /// A compiled pattern, cached because SQLite calls the match function once per row.
    static func cached(_ pattern: String, flags: String) -> StringPattern {
        let key = flags + "\u{0}" + pattern
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let compiled = StringPattern(pattern, flags: flags)
        cache.withLock { entries in
            if entries.count > 256 { entries.removeAll() }
            entries[key] = compiled
        }
        return compiled
    }
}
