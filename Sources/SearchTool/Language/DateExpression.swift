import Foundation

/// A date in a query: `YYYY-MM-DD` or a variable (`today`, `yesterday`, `this_week`,
/// `this_month`, `this_year`) with an optional offset in its own unit (`this_month-1` is last
/// month), resolved to the period it names, in the index's time zone. Mirrors Core Spotlight's
/// `$time.today(-1)` family in a form the grammar can bound.
struct DateExpression: Sendable, Hashable {
    let text: String

    /// The first and last instant of the period the expression names.
    func period(now: Date, timeZone: TimeZone) throws(SearchToolError) -> (start: Date, end: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "+" || $0 == "-" }
        let name = String(parts.first ?? "")
        var offset = 0
        if parts.count == 2, let amount = Int(parts[1]) {
            offset = text.contains("-") ? -amount : amount
        }
        func span(_ unit: Calendar.Component, from date: Date) throws(SearchToolError) -> (Date, Date) {
            guard let shifted = calendar.date(byAdding: unit, value: offset, to: date),
                  let interval = calendar.dateInterval(of: unit, for: shifted) else {
                throw .invalidQuery("the date \"\(text)\" is out of range")
            }
            return (interval.start, interval.end.addingTimeInterval(-0.001))
        }
        switch DateVariable(rawValue: name) {
        case .today?: return try span(.day, from: now)
        case .yesterday?:
            offset -= 1
            return try span(.day, from: now)
        case .thisWeek?: return try span(.weekOfYear, from: now)
        case .thisMonth?: return try span(.month, from: now)
        case .thisYear?: return try span(.year, from: now)
        case nil:
            let fields = text.split(separator: "-").compactMap { Int($0) }
            guard fields.count == 3,
                  let date = calendar.date(from: DateComponents(year: fields[0], month: fields[1], day: fields[2])),
                  calendar.component(.month, from: date) == fields[1] else {
                throw .invalidQuery("\"\(text)\" is not a date; write YYYY-MM-DD or a variable such as \(DateVariable.thisMonth)")
            }
            offset = 0
            return try span(.day, from: date)
        }
    }
}
