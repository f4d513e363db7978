extension Sequence where Element: Hashable {
    /// The elements in order, each once (the first of equal ones kept). `package`, not
    /// `public`: `ask`, the evaluations and the tests share this one definition, while an app
    /// importing Lantern keeps the name free for its own (swift-algorithms has a `uniqued()`
    /// of its own that a public one would make ambiguous).
    package func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
