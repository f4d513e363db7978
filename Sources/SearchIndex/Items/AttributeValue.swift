import Foundation

/// The kinds of value an attribute holds, mirroring the property types of
/// `CSSearchableItemAttributeSet` (String, [String], NSNumber, Date).
public enum AttributeKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    case string, strings, number, date
    public var description: String { rawValue }
}

/// One attribute's value. A Swift enum instead of Core Spotlight's `Any`/`NSNumber`, so that a
/// wrong kind is a typed error rather than a silent cast failure.
public enum AttributeValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case strings([String])
    case number(Double)
    case date(Date)

    public var kind: AttributeKind {
        switch self {
        case .string: .string
        case .strings: .strings
        case .number: .number
        case .date: .date
        }
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var stringsValue: [String]? { if case .strings(let value) = self { value } else { nil } }
    public var numberValue: Double? { if case .number(let value) = self { value } else { nil } }
    public var dateValue: Date? { if case .date(let value) = self { value } else { nil } }

    public var description: String {
        switch self {
        case .string(let value): value
        case .strings(let values): values.joined(separator: ", ")
        case .number(let value):
            value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .date(let value): value.formatted(.iso8601)
        }
    }
}
