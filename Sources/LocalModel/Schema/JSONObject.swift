/// The members of a JSON object, in the order they were written or added.
///
/// Order is kept because a schema's property order is the order the model writes them and the
/// order a tool-call grammar expects. Equality ignores order, as JSON does.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String] = []
    private var storage: [String: JSONValue] = [:]

    public init() {}

    /// Members in the given order; a repeated key keeps its first position and its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        for (key, value) in members { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }

    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public var startIndex: Int { keys.startIndex }
    public var endIndex: Int { keys.endIndex }
    public subscript(position: Int) -> (key: String, value: JSONValue) {
        let key = keys[position]
        return (key, storage[key] ?? .null)
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.storage == rhs.storage }
    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}
