extension Array {
    /// The elements that pass `test`, then those that do not, each in their order.
    func partitioned(by test: (Element) -> Bool) -> (passing: [Element], failing: [Element]) {
        var passing: [Element] = []
        var failing: [Element] = []
        for element in self {
            if test(element) { passing.append(element) } else { failing.append(element) }
        }
        return (passing, failing)
    }
}
