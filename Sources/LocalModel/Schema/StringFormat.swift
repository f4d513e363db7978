/// The string formats of JSON Schema's `format` that tools use most, each with its syntax as a
/// pattern: the grammar is compiled from that pattern and validation matches it, so what the
/// model writes always passes. The syntax is checked, not the calendar: `2025-02-31` passes.
public enum StringFormat: String, Sendable, Hashable, CaseIterable {
    /// RFC 3339 full-date, `2025-06-30`.
    case date
    /// RFC 3339 date-time, `2025-06-30T14:05:00Z` or with an offset (`+02:00`) and fractions.
    case dateTime = "date-time"
    /// RFC 3339 full-time, `14:05:00Z`.
    case time
    /// A UUID in its hyphenated hex form.
    case uuid
    /// An email address (the common subset: letters, digits and `._%+-` before the `@`, a
    /// domain of dot-separated labels after it).
    case email
    /// An absolute URI: a scheme, `:`, then URI characters (percent escapes included).
    case uri

    /// The whole-string pattern (the subset `PatternTranslator` turns into GBNF), bounded.
    public var pattern: String {
        let date = "[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
        let time = "([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]{1,6})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
        switch self {
        case .date: return date
        case .dateTime: return date + "T" + time
        case .time: return time
        case .uuid: return "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
        case .email: return "[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(\\.[A-Za-z0-9-]{1,63}){1,4}"
        case .uri: return "[A-Za-z][A-Za-z0-9+.-]{0,15}:[A-Za-z0-9._~:/?#@!$&'()*+,;=%\\[\\]-]{1,200}"
        }
    }
}
