import SearchIndex

extension IndexOrigin {
    /// The `ask index` command that builds index `name` from this source (its first folder when
    /// it has several), for messages that tell a user what to run.
    public func indexCommand(name: String) -> String {
        let flag = kind == .folder ? "--folder" : "--corpus"
        let place = location.split(separator: "\n").first.map(String.init) ?? location
        return "ask index \(flag) \(place) --index \(name)"
    }
}
