/// The number of tokens a model context can hold: prompt, transcript and answer together.
///
/// Small local models run with 4K or 8K windows; the presets name the common sizes, and any
/// other size is an integer literal away (`let window: ContextWindow = 6000`).
public struct ContextWindow: Sendable, Hashable, Comparable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// Size in tokens.
    public let tokens: Int

    public init(tokens: Int) { self.tokens = tokens }
    public init(integerLiteral value: Int) { self.tokens = value }

    /// 4,096 tokens.
    public static let k4 = ContextWindow(tokens: 4096)
    /// 8,192 tokens.
    public static let k8 = ContextWindow(tokens: 8192)
    /// 32,768 tokens.
    public static let k32 = ContextWindow(tokens: 32768)

    /// Parses "4k", "8K", "32k" or a plain token count such as "6000"; nil for anything else,
    /// a count of thousands too large for an `Int` among them.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if lowered.hasSuffix("k"), let thousands = Int(lowered.dropLast()), thousands > 0 {
            let (tokens, overflow) = thousands.multipliedReportingOverflow(by: 1024)
            guard !overflow else { return nil }
            self.tokens = tokens
        } else if let count = Int(lowered), count > 0 {
            self.tokens = count
        } else {
            return nil
        }
    }

    /// "4K" for exact multiples of 1,024, otherwise the plain count.
    public var description: String {
        tokens % 1024 == 0 ? "\(tokens / 1024)K" : "\(tokens)"
    }

    public static func < (lhs: ContextWindow, rhs: ContextWindow) -> Bool { lhs.tokens < rhs.tokens }
}

extension ContextWindow: Codable {
    /// Encodes as a plain token count (`4096`), so `--json` output reads without a wrapper.
    public init(from decoder: any Decoder) throws {
        self.tokens = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(tokens)
    }
}
