import Foundation
import Testing
import Evaluations
import SearchIndex

/// The runner resolves relative dates against `Configuration.now`, so the shipped date samples
/// keep their answers when pinned to the day they were written, and change when not.
@Suite struct ReferenceDateTests {
    /// Noon UTC on a YYYY-MM-DD day.
    static func noon(_ day: String) throws -> Date {
        try #require(ReferenceDay(day, timeZone: Scripted.utc)).noon
    }

    @Test func aReferenceDayIsNoonOfThatDayInItsTimeZone() throws {
        let day = try #require(ReferenceDay("2024-02-29", timeZone: Scripted.utc))
        // 2024-02-29T12:00:00Z, counted by hand: 19,782 days after 1970-01-01, plus 12 hours
        #expect(day.noon.timeIntervalSince1970 == 19_782 * 86_400 + 12 * 3_600)
        #expect(day.text == "2024-02-29")
        let tokyoZone = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let tokyo = try #require(ReferenceDay("2024-02-29", timeZone: tokyoZone))
        #expect(day.noon.timeIntervalSince(tokyo.noon) == 9 * 3_600)
    }

    @Test(arguments: ["2023-02-29", "2024-13-01", "2024-1-01", "24-01-01", "2024-01-01T00:00", "2024/01/01", "", "２０２４-01-01"])
    func notARealDayIsRefused(_ text: String) {
        #expect(ReferenceDay(text) == nil)
    }

    static let thisMonth = Scripted.search(#"{"dates": {"attribute": "completionDate", "from": "this_month"}}"#)

    @Test func theShippedThisMonthSampleIsCoveredOnItsDay() async throws {
        let samples = try SampleReader().samples(contentsOf: SampleData.trailsSamples)
        let sample = try #require(samples.first { $0.id == "finished-this-month" })
        let pinned = try Self.noon(SampleData.trailsSamplesToday)
        let results = try await Scripted.run([sample], script: [Self.thisMonth, "Done."], now: { pinned })
        let result = try #require(results.first)
        #expect(result.error == nil)
        #expect(result.metrics.resultCoverage == 1.0)
    }

    @Test func anotherDayFindsOtherTrails() async throws {
        let samples = try SampleReader().samples(contentsOf: SampleData.trailsSamples)
        let sample = try #require(samples.first { $0.id == "finished-this-month" })
        // The month before the samples' day: its one trail is not among this month's.
        let pinned = try Self.noon(SampleData.trailsSamplesToday).addingTimeInterval(-31 * 86_400)
        let results = try await Scripted.run([sample], script: [Self.thisMonth, "Done."], now: { pinned })
        #expect(try #require(results.first).metrics.resultCoverage == 0)
    }
}
