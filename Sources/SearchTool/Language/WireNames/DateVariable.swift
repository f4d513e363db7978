/// The named periods a date in a query may be, as the model writes them (`this_month-1` adds
/// an offset): `QueryLanguage.datePattern` offers exactly these and `DateExpression` resolves
/// exactly these.
package enum DateVariable: String, Sendable, CaseIterable, CustomStringConvertible {
    case today, yesterday, thisWeek = "this_week", thisMonth = "this_month", thisYear = "this_year"

    package var description: String { rawValue }
}
