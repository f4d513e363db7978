import Foundation

/// A date or time of a corpus line, read strictly as ISO 8601 (RFC 3339's profile of it):
/// `2024-06-14` (midnight UTC), or `2024-06-14T19:20:00Z` with optional seconds, fraction
/// (`.250`) and a zone that is `Z` or an offset (`+02:00`, `+0200`, `+02`); `T` may be `t` or
/// a space, `Z` may be `z`.
///
/// Foundation's ISO-8601 parsing is lenient in ways that lose data without a word: it rolls
/// impossible values over (2024-02-30 is March 1st, hour 25 the next day), and its date-only
/// form reads the start of any longer text (`2024-06-14T19:20:00` without a zone, or
/// `2024-06-14xyz`, became midnight). Here every field is checked against the calendar
/// (proleptic Gregorian, as ISO 8601 says) and the whole text must be one of the forms, so a
/// value is either the instant it names or an error that says what is wrong with it.
enum CorpusDate {
    enum Reading: Equatable {
        /// The instant the text names.
        case date(Date)
        /// The text has none of the forms above.
        case notADate
        /// The text has a form above but names no real date or time; the reason says which
        /// field is wrong ("February 2024 has 29 days", "there is no hour 25").
        case impossible(reason: String)
    }

    static func read(_ text: String) -> Reading {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2) else { return .notADate }
        var seconds = 0
        var fraction = 0.0
        if !scanner.atEnd {
            guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "), let hour = scanner.number(digits: 2), scanner.skip(":"),
                  let minute = scanner.number(digits: 2) else { return .notADate }
            var second = 0
            if scanner.skip(":") {
                guard let value = scanner.number(digits: 2) else { return .notADate }
                second = value
                if scanner.skip(".") || scanner.skip(",") {
                    guard let digits = scanner.digits(), let value = Double("0." + digits) else { return .notADate }
                    fraction = value
                }
            }
            var offset = (sign: 1, hours: 0, minutes: 0)
            if scanner.skip("Z") || scanner.skip("z") {
                offset = (1, 0, 0)
            } else if let sign = scanner.sign() {
                guard let hours = scanner.number(digits: 2) else { return .notADate }
                offset = (sign, hours, 0)
                if scanner.skip(":") {
                    guard let minutes = scanner.number(digits: 2) else { return .notADate }
                    offset.minutes = minutes
                } else if let minutes = scanner.number(digits: 2) {
                    offset.minutes = minutes
                }
            } else {
                return .notADate // a time needs its zone: without one the instant is unknown
            }
            guard scanner.atEnd else { return .notADate }
            if offset.hours > 23 { return .impossible(reason: "there is no offset of \(offset.hours) hours") }
            if offset.minutes > 59 { return .impossible(reason: "there is no offset of \(offset.minutes) minutes") }
            if hour > 23 { return .impossible(reason: "there is no hour \(hour)") }
            if minute > 59 { return .impossible(reason: "there is no minute \(minute)") }
            if second == 60 { return .impossible(reason: "there is no second 60 here (a leap second cannot be stored; write 59)") }
            if second > 59 { return .impossible(reason: "there is no second \(second)") }
            seconds = hour * 3600 + minute * 60 + second - offset.sign * (offset.hours * 3600 + offset.minutes * 60)
        }
        guard (1...12).contains(month) else { return .impossible(reason: "there is no month \(month)") }
        if day == 0 { return .impossible(reason: "there is no day 0") }
        let length = daysIn(month: month, year: year)
        guard day <= length else { return .impossible(reason: "\(monthNames[month - 1]) \(year) has \(length) days") }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return .date(Date(timeIntervalSince1970: Double(days * 86_400 + seconds) + fraction))
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                     "October", "November", "December"]

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the day, in the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Reads the text's bytes front to back.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Character) -> Bool {
            guard let byte = character.asciiValue, position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// Exactly `digits` ASCII digits as a number.
        mutating func number(digits count: Int) -> Int? {
            guard position + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += count
            return value
        }

        /// One or more ASCII digits, as written.
        mutating func digits() -> String? {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// +1 for "+", -1 for "-" (or U+2212 MINUS SIGN, which ISO 8601 also allows).
        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            let minus: [UInt8] = [0xE2, 0x88, 0x92]
            if position + 3 <= bytes.count, Array(bytes[position..<position + 3]) == minus {
                position += 3
                return -1
            }
            return nil
        }
    }
}
