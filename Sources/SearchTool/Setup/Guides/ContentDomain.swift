import SearchIndex

/// What kind of content a focused guide searches, with the attributes it covers (Apple's
/// `ContentDomain`; `.messages` and `.events` stand for Apple's `.communications` and
/// `.calendar`, named for what they hold).
public struct ContentDomain: Sendable, Hashable {
    /// The domain's name, as the description shows it.
    public var name: String
    /// Attributes matched as text (besides free-text terms).
    public var textAttributes: [SearchableItemAttribute]
    /// Date attributes the model may filter and group on.
    public var dateAttributes: [SearchableItemAttribute]
    /// People attributes (authors, recipients) the model may filter on.
    public var peopleAttributes: [SearchableItemAttribute]

    public init(name: String, textAttributes: [SearchableItemAttribute] = [], dateAttributes: [SearchableItemAttribute] = [],
                peopleAttributes: [SearchableItemAttribute] = []) {
        self.name = name
        self.textAttributes = textAttributes
        self.dateAttributes = dateAttributes
        self.peopleAttributes = peopleAttributes
    }

    /// Title, text content, creation and modification dates (Apple's `.items` mapping).
    public static let items = ContentDomain(name: "items", textAttributes: [.title, .textContent],
                                            dateAttributes: [.contentCreationDate, .contentModificationDate])
    /// Files and documents: title, name, path, type, dates.
    public static let documents = ContentDomain(name: "documents", textAttributes: [.title, .displayName, .path],
                                                dateAttributes: [.contentModificationDate, .contentCreationDate])
    /// Mail and messages: subject, authors, recipients, date.
    public static let messages = ContentDomain(name: "messages", textAttributes: [.subject, .textContent],
                                               dateAttributes: [.contentCreationDate], peopleAttributes: [.authorNames, .recipientNames])
    /// Calendar events: title, place, start and end.
    public static let events = ContentDomain(name: "events", textAttributes: [.title, .namedLocation],
                                             dateAttributes: [.startDate, .endDate])
}
