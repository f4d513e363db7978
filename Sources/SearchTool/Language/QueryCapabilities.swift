import SearchIndex

/// What a configuration lets the model do, resolved once from the guide and the sources: the
/// input of the one schema (`QueryLanguage`) that yields both the description and the grammar.
struct QueryCapabilities: Sendable {
    var textMatch: Bool
    /// String attributes the model may filter with `is` / `contains`.
    var stringAttributes: [SearchableItemAttribute]
    var numericAttributes: [SearchableItemAttribute]
    var dateAttributes: [SearchableItemAttribute]
    var peopleAttributes: [SearchableItemAttribute]
    var contentType: Bool
    /// Built-in stages offered (a focused guide offers only `count`).
    var stageKinds: [BuiltInStage]
    var sort: Bool
    /// Attributes a `table` stage may show: the sources' fetchAttributes.
    var fetchAttributes: [SearchableItemAttribute]
    var customStages: [any CustomStage]
    var maximumLimit: Int
    var format: FormatLevel
    var hasContactResolver: Bool

    init(configuration: SearchTool.Configuration) {
        let guide = configuration.guide
        format = guide.format
        customStages = configuration.customStages
        hasContactResolver = configuration.contactResolver != nil
        var kinds: [SearchableItemAttribute: AttributeKind] = [:]
        var fetch: [SearchableItemAttribute] = []
        var limit = 1
        for source in configuration.sources {
            switch source {
            case .index(let index):
                kinds.merge(index.customAttributeKinds) { first, _ in first }
                fetch += index.fetchAttributes
                limit = max(limit, index.maximumResultCount ?? 50)
            case .files(let files):
                fetch += files.fetchAttributes
                limit = max(limit, files.maximumResultCount ?? 50)
            }
        }
        fetchAttributes = fetch.uniqued()
        maximumLimit = min(limit, 50)
        func kind(_ attribute: SearchableItemAttribute) -> AttributeKind? { attribute.standardKind ?? kinds[attribute] }
        func of(_ wanted: AttributeKind..., in attributes: [SearchableItemAttribute]) -> [SearchableItemAttribute] {
            attributes.filter { kind($0).map(wanted.contains) ?? false }
        }
        let people: [SearchableItemAttribute] = [.authorNames, .recipientNames, .emailAddresses]
        switch guide.level {
        case .complete:
            let all = (SearchableItemAttribute.standard.map(\.attribute) + fetchAttributes).uniqued()
                .filter { $0 != .textContent && !people.contains($0) }
            textMatch = true
            stringAttributes = of(.string, .strings, in: all)
            numericAttributes = of(.number, in: all)
            dateAttributes = of(.date, in: all)
            peopleAttributes = people
            contentType = true
            stageKinds = BuiltInStage.allCases
            sort = true
        case .focused(let domain):
            textMatch = true
            // The domain's text attributes are matched by the terms (full text covers them).
            stringAttributes = []
            numericAttributes = []
            dateAttributes = of(.date, in: domain.dateAttributes)
            peopleAttributes = domain.peopleAttributes
            contentType = false
            stageKinds = [.count]
            sort = false
        case .dynamic(let profile):
            let attributes = (profile.attributes ?? fetchAttributes).filter { $0 != .textContent }
            textMatch = profile.textMatch ?? true
            stringAttributes = textMatch ? of(.string, .strings, in: attributes.filter { !people.contains($0) }) : []
            numericAttributes = profile.numericMatch ?? true ? of(.number, in: attributes) : []
            dateAttributes = profile.dates ?? true ? of(.date, in: attributes) : []
            let listedPeople = attributes.filter(people.contains)
            peopleAttributes = profile.people ?? false ? (listedPeople.isEmpty ? [.authorNames, .recipientNames] : listedPeople) : []
            contentType = profile.contentType ?? false
            stageKinds = profile.stages ?? true ? BuiltInStage.allCases : []
            sort = !numericAttributes.isEmpty || !dateAttributes.isEmpty
        }
        // A text filter on contentType says the same as the separate field: offer one way only.
        if stringAttributes.contains(.contentType) { contentType = false }
        if numericAttributes.isEmpty { stageKinds.removeAll { $0 == .statistic || $0 == .score } }
        if stringAttributes.isEmpty && dateAttributes.isEmpty && numericAttributes.isEmpty { stageKinds.removeAll { $0 == .groupBy } }
        if fetchAttributes.isEmpty { stageKinds.removeAll { $0 == .table } }
    }

    var offersStages: Bool { !stageKinds.isEmpty || !customStages.isEmpty }

    /// Every attribute the query may name (for checks when running it).
    var filterableAttributes: Set<SearchableItemAttribute> {
        Set(stringAttributes + numericAttributes + dateAttributes + peopleAttributes)
    }

    /// Attributes a groupBy stage may use.
    var groupableAttributes: [SearchableItemAttribute] { stringAttributes + numericAttributes + dateAttributes }
}
