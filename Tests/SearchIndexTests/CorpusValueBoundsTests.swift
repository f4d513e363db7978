import Foundation
import Testing
@testable import SearchIndex

/// Honest values (issue 55): a number JSON can write but a Double cannot hold, a date that is
/// not on the calendar, and a coordinate off the globe are errors naming the line, where they
/// used to be "not a JSON object", a silently rolled-over day and an accepted latitude of 1e308.
@Suite struct CorpusValueBoundsTests {
    private let reader = CorpusReader()

    private func error(attributes: String, custom: String = "{}") throws -> CorpusReaderError {
        let text = #"{"id": "ok", "attributes": {"title": "fine"}}"# + "\n\n"
            + #"{"id": "x", "attributes": "# + attributes + #", "custom": "# + custom + "}\n"
        return try #require(throws: CorpusReaderError.self) { try reader.items(fromText: text, path: "c.jsonl") }
    }

    @Test(arguments: [
        (#"{"rating": 1e400}"#, #"attribute "rating" holds 1e400, a number out of range"#),
        (#"{"duration": -1e400}"#, #"attribute "duration" holds -1e400, a number out of range"#),
        (#"{"altitude": 1e-400}"#, #"attribute "altitude" holds 1e-400, a number out of range"#),
        (#"{"title": 1e400}"#, #"attribute "title" holds 1e400, a number out of range"#),
    ])
    func numbersNoDoubleHoldsAreOutOfRangeWithTheLine(attributes: String, expected: String) throws {
        let error = try error(attributes: attributes)
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("c.jsonl line 3: "), "\(error)")
        #expect(error.description.contains(expected), "\(error)")
        #expect(!error.description.contains("not a JSON object"), "\(error)")
    }

    @Test func aCustomNumberNoDoubleHoldsIsOutOfRangeToo() throws {
        let error = try error(attributes: "{}", custom: #"{"distanceKilometers": 2e999}"#)
        #expect(error.line == 3)
        #expect(error.description.contains(#"custom "distanceKilometers" holds 2e999, a number out of range"#), "\(error)")
    }

    @Test(arguments: [
        ("2024-02-30", "February 2024 has 29 days"),
        ("2023-02-29", "February 2023 has 28 days"),
        ("2024-06-31T10:00:00Z", "June 2024 has 30 days"),
        ("2024-13-01", "there is no month 13"),
        ("2024-00-10", "there is no month 0"),
        ("2024-06-00", "there is no day 0"),
        ("2024-06-14T25:00:00Z", "there is no hour 25"),
        ("2024-06-14T24:00:00Z", "there is no hour 24"),
        ("2024-06-14T19:60:00Z", "there is no minute 60"),
        ("2024-06-14T19:20:61Z", "there is no second 61"),
        ("2024-06-14T19:20:00+25:00", "there is no offset of 25 hours"),
    ])
    func impossibleDatesAreErrorsNamingWhatIsImpossible(text: String, expected: String) throws {
        let error = try error(attributes: #"{"completionDate": ""# + text + #""}"#)
        #expect(error.line == 3)
        #expect(error.description.contains(#"attribute "completionDate" holds "\#(text)", which is not a real date or time: \#(expected)"#), "\(error)")
    }

    @Test func anImpossibleDateUnderCustomIsAnErrorNotARolledOverDay() throws {
        let error = try error(attributes: "{}", custom: #"{"visitedOn": "2024-02-30"}"#)
        #expect(error.line == 3)
        #expect(error.description.contains(#"custom "visitedOn" holds "2024-02-30", which is not a real date or time: February 2024 has 29 days"#), "\(error)")
    }

    @Test(arguments: [
        "2024-06-14T19:20:00", // a time without a zone used to become midnight, its time dropped
        "2024-06-14xyz",
        "2024-6-14",
        "12024-06-14",
        "2024-06-14T19:20:00+99:99x",
    ])
    func textThatIsNoISODateIsRefusedNotCutShort(text: String) throws {
        let error = try error(attributes: #"{"completionDate": ""# + text + #""}"#)
        #expect(error.line == 3)
        #expect(error.problem == .invalidDate(attribute: "completionDate", text: text), "\(error)")
    }

    @Test(arguments: [
        (#"{"latitude": 1e308}"#, #"attribute "latitude" must be from -90 to 90 (degrees), found 1e+308"#),
        (#"{"latitude": -90.5}"#, #"attribute "latitude" must be from -90 to 90 (degrees), found -90.5"#),
        (#"{"longitude": 180.25}"#, #"attribute "longitude" must be from -180 to 180 (degrees), found 180.25"#),
        (#"{"duration": -5}"#, #"attribute "duration" must be 0 or more (seconds), found -5"#),
        (#"{"fileSize": -1}"#, #"attribute "fileSize" must be 0 or more (bytes), found -1"#),
        (#"{"pageCount": -2}"#, #"attribute "pageCount" must be 0 or more (pages), found -2"#),
    ])
    func numbersOutsideTheirAttributesRangeAreErrors(attributes: String, expected: String) throws {
        let error = try error(attributes: attributes)
        #expect(error.line == 3)
        #expect(error.description.contains(expected), "\(error)")
    }

    @Test func realDatesAndValuesAtTheEdgesAreRead() throws {
        let line = #"""
        {"id": "t", "attributes": {"latitude": 90, "longitude": -180, "duration": 0, "altitude": -430.5, "rating": -1,
         "completionDate": "2024-02-29", "startDate": "2024-06-14T19:20:00+02:00", "endDate": "2024-06-14T19:20:00.250Z",
         "dueDate": "2024-06-14T19:20:00+0200", "addedDate": "1999-12-31T23:59:59Z", "lastUsedDate": "2024-06-14 19:20:00Z",
         "contentModificationDate": "2024-06-14T19:20:00-05:30"},
         "custom": {"visitedOn": "2000-02-29T00:00:00Z", "permit": "YOS-1", "huge": 1.7976931348623157e308}}
        """#.replacingOccurrences(of: "\n", with: "")
        let set = try reader.item(fromLine: line).attributeSet
        #expect(set.latitude == 90 && set.longitude == -180 && set.duration == 0 && set.altitude == -430.5 && set.rating == -1)
        #expect(set.completionDate == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(set.startDate == Date(timeIntervalSince1970: 1_718_385_600))
        #expect(set.endDate == Date(timeIntervalSince1970: 1_718_392_800.25))
        #expect(set.dueDate == Date(timeIntervalSince1970: 1_718_385_600))
        #expect(set.addedDate == Date(timeIntervalSince1970: 946_684_799))
        #expect(set.lastUsedDate == Date(timeIntervalSince1970: 1_718_392_800))
        #expect(set.contentModificationDate == Date(timeIntervalSince1970: 1_718_412_600))
        #expect(set[SearchableItemAttribute(rawValue: "visitedOn")] == .date(Date(timeIntervalSince1970: 951_782_400)))
        #expect(set[SearchableItemAttribute(rawValue: "permit")] == .string("YOS-1"))
        #expect(set[SearchableItemAttribute(rawValue: "huge")] == .number(.greatestFiniteMagnitude))
    }
}
