import Foundation

/// A 0...1 share written as a percentage with one decimal ("87.5%"), or "–" when absent.
public struct Percent: Sendable, CustomStringConvertible {
    public let value: Double?
    public init(_ value: Double?) { self.value = value }
    public var description: String {
        guard let value else { return "–" }
        return String(format: "%.1f%%", value * 100)
    }
}
