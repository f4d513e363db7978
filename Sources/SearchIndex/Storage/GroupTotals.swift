import Foundation

/// What a date grouping keeps per bucket: how many items, and the sum, count, minimum and maximum
/// of the statistic's values (items without a value count but add no value).
struct GroupTotals: Equatable {
    var count = 0
    var sum = 0.0
    var valueCount = 0
    var minimum: Double?
    var maximum: Double?

    mutating func add(_ value: Double?) {
        count += 1
        guard let value else { return }
        sum += value
        valueCount += 1
        minimum = Swift.min(minimum ?? value, value)
        maximum = Swift.max(maximum ?? value, value)
    }

    /// Rolls another bucket's totals into this one (days into weeks, months, years: exact).
    mutating func merge(_ other: GroupTotals) {
        count += other.count
        sum += other.sum
        valueCount += other.valueCount
        if let low = other.minimum { minimum = Swift.min(minimum ?? low, low) }
        if let high = other.maximum { maximum = Swift.max(maximum ?? high, high) }
    }
}

/// The state of the `lantern_group_totals(key, value)` SQL aggregate: totals per integer key,
/// kept in a hash table while SQLite walks the rows once.
///
/// SQLite's own GROUP BY needs its rows in key order: over a million items it either sorts them
/// all or walks a key index and reads each item's row by rowid, many times the cost of one
/// scan of `items`. A day-keyed date grouping with a statistic has at most a few thousand keys, so
/// hashing them during a plain scan is the cheap way, and it still happens inside the query —
/// no row leaves SQLite. The result is one blob (`encoded()`), read back with `decode(_:)`.
final class GroupTotalsAccumulator {
    /// Keys near the first one (day numbers of the same era) index an array, which costs a
    /// subtraction per row instead of a hash; the rest go to a dictionary.
    private var firstKey: Int64?
    private var near: [GroupTotals] = []
    private var far: [Int64: GroupTotals] = [:]
    static let nearBefore: Int64 = 4_096, nearSpan: Int64 = 16_384

    func add(key: Int64, value: Double?) {
        let base: Int64
        if let firstKey { base = firstKey - Self.nearBefore } else {
            firstKey = key
            base = key - Self.nearBefore
        }
        let offset = key &- base
        guard offset >= 0, offset < Self.nearSpan else {
            far[key, default: GroupTotals()].add(value)
            return
        }
        let position = Int(offset)
        if position >= near.count { near.append(contentsOf: repeatElement(GroupTotals(), count: position - near.count + 1)) }
        near[position].add(value)
    }

    /// The totals per key (keys with no row are absent).
    var groups: [Int64: GroupTotals] {
        var groups = far
        if let firstKey {
            for (position, totals) in near.enumerated() where totals.count > 0 {
                groups[firstKey - Self.nearBefore + Int64(position)] = totals
            }
        }
        return groups
    }

    /// Per key: key, count, sum, valueCount, minimum, maximum (NaN for none), 8 bytes each, little endian.
    func encoded() -> [UInt8] {
        let groups = self.groups
        var bytes: [UInt8] = []
        bytes.reserveCapacity(groups.count * Self.recordSize)
        func append(_ bits: UInt64) { withUnsafeBytes(of: bits.littleEndian) { bytes.append(contentsOf: $0) } }
        for (key, totals) in groups {
            append(UInt64(bitPattern: key))
            append(UInt64(totals.count))
            append(totals.sum.bitPattern)
            append(UInt64(totals.valueCount))
            append((totals.minimum ?? .nan).bitPattern)
            append((totals.maximum ?? .nan).bitPattern)
        }
        return bytes
    }

    static let recordSize = 6 * 8

    /// The totals per key of an `encoded()` blob; nil when the blob is not one.
    static func decode(_ bytes: [UInt8]) -> [Int64: GroupTotals]? {
        guard bytes.count % recordSize == 0 else { return nil }
        func word(_ offset: Int) -> UInt64 {
            (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        }
        var groups: [Int64: GroupTotals] = [:]
        for start in stride(from: 0, to: bytes.count, by: recordSize) {
            let minimum = Double(bitPattern: word(start + 32)), maximum = Double(bitPattern: word(start + 40))
            groups[Int64(bitPattern: word(start))] = GroupTotals(
                count: Int(word(start + 8)), sum: Double(bitPattern: word(start + 16)), valueCount: Int(word(start + 24)),
                minimum: minimum.isNaN ? nil : minimum, maximum: maximum.isNaN ? nil : maximum)
        }
        return groups
    }
}
