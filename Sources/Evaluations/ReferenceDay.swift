import Foundation

/// The day relative dates in questions ("this month", "last year") resolve against, at noon in
/// a time zone. A dataset written on a given day pins it, or its date questions change answers
/// as time passes; noon keeps the day (and its month) whatever offset the index's dates use.
public struct ReferenceDay: Sendable, Hashable {
    /// The day as written, YYYY-MM-DD.
    public let text: String
    /// Noon of that day in the time zone it was read in.
    public let noon: Date

    /// nil when `text` is not a real YYYY-MM-DD day.
    public init?(_ text: String, timeZone: TimeZone = .current) {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
              fields.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)),
              calendar.dateComponents([.year, .month, .day], from: date) == DateComponents(year: year, month: month, day: day) else { return nil }
        self.text = text
        self.noon = date
    }
}
