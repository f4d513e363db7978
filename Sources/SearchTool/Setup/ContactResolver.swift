/// Resolves "I", "me" and "my" to the user's own names and addresses (Apple's
/// `ContactResolver`), so a filter on authors or recipients written as "me" matches the index.
/// Called synchronously, like Apple's, once per query that uses "me".
public protocol ContactResolver: Sendable {
    func userIdentity() -> ResolvedContact
}

/// The user's identity as index-matchable values (Apple's `ResolvedContact`).
public struct ResolvedContact: Sendable, Hashable {
    public var displayName: String
    public var names: [String]
    public var emailAddresses: [String]
    public var phoneNumbers: [String]

    public init(displayName: String, names: [String] = [], emailAddresses: [String] = [], phoneNumbers: [String] = []) {
        self.displayName = displayName
        self.names = names
        self.emailAddresses = emailAddresses
        self.phoneNumbers = phoneNumbers
    }

    /// Every value that stands for the user: the display name, the other names, addresses, phones.
    var allValues: [String] {
        var seen = Set<String>()
        return ([displayName] + names + emailAddresses + phoneNumbers).filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}
