import SearchIndex

/// A statistic stage's `function`, as the model writes it; the same word names the result
/// (`avg rating`).
package enum StatisticFunction: String, Sendable, CaseIterable, CustomStringConvertible {
    case sum, average = "avg", minimum = "min", maximum = "max"

    /// The index's statistic this function computes.
    var statistic: Statistic {
        switch self {
        case .sum: .sum
        case .average: .average
        case .minimum: .minimum
        case .maximum: .maximum
        }
    }

    package var description: String { rawValue }
}
