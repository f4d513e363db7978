import Foundation
import Testing
import Evaluations
import SearchIndex

/// The runner resolves relative dates against `Configuration.now`, so the shipped date samples
/// keep their answers when pinned to the day they were written, and change when not.
@Suite struct ReferenceDateTests {
    /// Noon UTC on a YYYY-MM-DD day.
    static func noon(_ day: String) throws -> Date {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Scripted.utc
        return try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)))
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
