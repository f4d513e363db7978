import Foundation

/// The date component stored beside every date attribute at write time: the day number (days
/// since 1970-01-01) in the index's time zone.
///
/// Grouping by day, week, month or year first groups by this indexed integer in SQL (a walk of one
/// index, a few thousand buckets at most), then rolls the buckets up — so grouping a million items
/// by month never formats a date per row.
enum DayNumber {
    static func of(_ date: Date, in timeZone: TimeZone) -> Int64 {
        let seconds = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        return Int64((seconds / 86_400).rounded(.down))
    }

    /// The civil date (year, month, day) of a day number (Howard Hinnant's algorithm).
    static func civil(_ day: Int64) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (Int(yearOfEra + era * 400 + (m <= 2 ? 1 : 0)), Int(m), Int(d))
    }

    /// The day number of a civil date.
    static func from(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The first day of the bucket holding `day` (ISO weeks start on Monday; 1970-01-01 was a Thursday).
    static func bucketStart(_ day: Int64, unit: DateGroupingUnit) -> Int64 {
        switch unit {
        case .day: return day
        case .week: return day - ((day + 3) % 7 + 7) % 7
        case .month:
            let date = civil(day)
            return from(year: date.year, month: date.month, day: 1)
        case .year: return from(year: civil(day).year, month: 1, day: 1)
        }
    }

    /// A label such as 2024-05-17, 2024-W20, 2024-05 or 2024.
    static func label(_ start: Int64, unit: DateGroupingUnit) -> String {
        let date = civil(start)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        switch unit {
        case .day: return "\(date.year)-\(two(date.month))-\(two(date.day))"
        case .week:
            let thursday = civil(start + 3)
            let week = (start + 3 - from(year: thursday.year, month: 1, day: 1)) / 7 + 1
            return "\(thursday.year)-W\(two(Int(week)))"
        case .month: return "\(date.year)-\(two(date.month))"
        case .year: return "\(date.year)"
        }
    }

    /// The instant a day number starts in `timeZone`.
    static func startDate(_ day: Int64, in timeZone: TimeZone) -> Date {
        let utc = Date(timeIntervalSince1970: Double(day) * 86_400)
        return utc.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: utc)))
    }
}
