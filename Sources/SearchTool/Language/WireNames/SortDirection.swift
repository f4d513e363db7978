/// The `order` of a sort or a score stage, as the model writes it.
package enum SortDirection: String, Sendable, CaseIterable, CustomStringConvertible {
    case descending, ascending

    package var description: String { rawValue }
}
