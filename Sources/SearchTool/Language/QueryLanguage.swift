import LocalModel
import SearchIndex

/// The query language as one schema per configuration, `arguments(vocabulary:)`: the prompt
/// shows it (as JSON Schema in `parameters` for the structured format, as a `SchemaSketch` in
/// the description for the compact one) and `GrammarCompiler` turns it into the grammar that
/// constrains the call, so the two can never disagree (the defect of forum thread 833651).
///
/// A query is a search (terms, filters, a date range, a content type, sort, limit) followed by
/// optional stages. Every string, number and array is bounded: a 135M model given an open
/// `limit` wrote digits until the token cap.
struct QueryLanguage: Sendable {
    let capabilities: QueryCapabilities

    /// The words and values one request may use, when the grammar is tightened per request.
    struct Vocabulary: Sendable, Hashable {
        /// Allowed search terms (the question's words, plus few-valued attribute values).
        var terms: [String]
        /// For string attributes with few distinct values: those values.
        var values: [SearchableItemAttribute: [String]]
        /// What custom stages' free string arguments may be: the question's words and phrases.
        var phrases: [String] = []
    }

    static let maximumTerms = 3
    static let maximumTermLength = 32
    static let maximumValueLength = 64
    static let maximumFilters = 3
    static let maximumStages = 3
    static let maximumLabelLength = 48
    static let numberBound = 1e9
    /// `2024-05-01`, `today`, `this_month-1` (last month), `this_year+1`.
    static let datePattern = #"(\d{4}-\d{2}-\d{2}|("# + DateVariable.allCases.map(\.rawValue).joined(separator: "|") + #")([+-]\d{1,3})?)"#
    /// The name of the shared date definition (`$defs`).
    private static let dateDefinition = "date"
    /// An attribute list with at least this many names is written once, under `$defs`, and
    /// referred to wherever it is used (filters, sort, stages), instead of spelled out each time.
    static let sharedListMinimum = 3

    private var compact: Bool { capabilities.format == .compact }
    /// The structured wording, or none in the compact format: there the schema is shown as a
    /// sketch whose key names say enough (`SchemaSketch`).
    private func text(_ structured: String) -> String? { compact ? nil : structured }

    /// The `{"query": …}` arguments object, open (`vocabulary == nil`: what the prompt shows
    /// and what every call is validated against) or tightened to one request's words (what
    /// that request's grammar enforces); the tightened one accepts a subset of the open one.
    func arguments(vocabulary: Vocabulary? = nil) -> GenerationSchema {
        var definitions: [GenerationSchema.Definition] = []
        if !capabilities.dateAttributes.isEmpty {
            // The compact sketch shows the pattern, which names the variables: its description
            // only says what an offset means.
            definitions.append(.init(name: Self.dateDefinition, schema: .string(description: compact
                ? "\(DateVariable.thisMonth)-1: last month"
                : "YYYY-MM-DD, or a period with an optional offset in its unit (\(DateVariable.thisMonth)-1 is last month)",
                pattern: Self.datePattern)))
        }
        for list in AttributeList.allCases {
            let names = list.attributes(capabilities)
            if names.count >= Self.sharedListMinimum {
                definitions.append(.init(name: list.rawValue, schema: .string(anyOf: names.map(\.rawValue))))
            }
        }
        var schema = GenerationSchema.object([.property(.query, query(vocabulary: vocabulary))])
        schema.definitions = definitions
        return schema
    }

    /// The attribute lists several parts of the query name.
    private enum AttributeList: String, CaseIterable {
        case text = "text_attribute", number = "number_attribute", date = "date_attribute"

        func attributes(_ c: QueryCapabilities) -> [SearchableItemAttribute] {
            switch self {
            case .text: c.stringAttributes
            case .number: c.numericAttributes
            case .date: c.dateAttributes
            }
        }
    }

    /// One attribute of these lists: references to the shared lists, and the names of the short
    /// ones in one enumeration.
    private func attribute(in lists: AttributeList...) -> GenerationSchema {
        var schemas: [GenerationSchema] = []
        var names: [String] = []
        for list in lists {
            let attributes = list.attributes(capabilities)
            if attributes.count >= Self.sharedListMinimum {
                schemas.append(.reference(list.rawValue))
            } else {
                names += attributes.map(\.rawValue)
            }
        }
        if !names.isEmpty { schemas.append(.string(anyOf: names)) }
        return schemas.count == 1 ? schemas[0] : .anyOf(schemas)
    }

    private func query(vocabulary: Vocabulary?) -> GenerationSchema {
        let c = capabilities
        var properties: [GenerationSchema.Property] = []
        if c.textMatch {
            let term: GenerationSchema
            if let vocabulary {
                term = .string(anyOf: vocabulary.terms.filter { $0.count <= Self.maximumTermLength })
            } else {
                term = .string(maxLength: Self.maximumTermLength)
            }
            if vocabulary.map({ !$0.terms.isEmpty }) ?? true {
                properties.append(.property(.terms, .array(of: term, description: text(
                    "Topic words that must all appear."),
                    minItems: 1, maxItems: Self.maximumTerms), optional: true))
            }
        }
        let filters = filterSchemas(vocabulary: vocabulary)
        if !filters.isEmpty {
            properties.append(.property(.filters, .array(of: filters.count == 1 ? filters[0] : .oneOf(filters),
                                                          description: nil,
                                                          minItems: 1, maxItems: Self.maximumFilters), optional: true))
        }
        if !c.dateAttributes.isEmpty {
            properties.append(.property(.dates, .object([
                .property(.attribute, attribute(in: .date)),
                .property(.from, .reference(Self.dateDefinition)),
                .property(.to, .reference(Self.dateDefinition), optional: true),
            ], description: text("'\(QueryKey.from)' alone is that whole period; '\(QueryKey.to)' is inclusive.")), optional: true))
        }
        if c.contentType {
            properties.append(.property(.contentType, .string(description: text("e.g. public.text, public.pdf"),
                                                               maxLength: Self.maximumValueLength), optional: true))
        }
        if c.sort {
            properties.append(.property(.sort, .object([
                .property(.attribute, attribute(in: .number, .date)),
                .property(.order, Self.directions),
            ]), optional: true))
        }
        let alternatives = stageSchemas(vocabulary: vocabulary)
        let stages = alternatives.schemas
        if !stages.isEmpty {
            // The grammar takes keys in this order. With terms first, the 135M model wrote terms
            // and closed the query even when asked for an app's stage by name; offered first,
            // the stage was written. So an app's stages lead, the built-in ones follow the search.
            properties.insert(.property(.stages, .array(of: stages.count == 1 ? stages[0] : .oneOf(stages), description: text(
                "Run in order, each on the previous one's output."),
                minItems: 1, maxItems: min(Self.maximumStages, stages.count)), optional: true), at: alternatives.offersCustom ? 0 : properties.count)
        }
        properties.append(.property(.limit, .integer(minimum: 1, maximum: c.maximumLimit), optional: true))
        if !compact {
            properties.append(.property(.label, .string(description: "A title for the results.",
                                                     maxLength: Self.maximumLabelLength), optional: true))
        }
        return .object(properties)
    }

    private func filterSchemas(vocabulary: Vocabulary?) -> [GenerationSchema] {
        let c = capabilities
        var schemas: [GenerationSchema] = []
        if !c.stringAttributes.isEmpty {
            let operators = Self.operators(.text)
            // An attribute offers its values when some are short enough to write; one whose
            // values are all longer (file paths) stays open, or its enum would be empty.
            let offered = Dictionary(uniqueKeysWithValues: c.stringAttributes.map { attribute in
                (attribute, (vocabulary?.values[attribute] ?? []).filter { $0.count <= Self.maximumValueLength })
            })
            let few = c.stringAttributes.filter { offered[$0]?.isEmpty == false }
            let open = c.stringAttributes.filter { !few.contains($0) }
            for attribute in few {
                let values = offered[attribute] ?? []
                schemas.append(.object([
                    .property(.attribute, .string(anyOf: [attribute.rawValue])),
                    .property(.op, operators),
                    .property(.value, .string(anyOf: values)),
                ]))
            }
            if !open.isEmpty {
                schemas.append(.object([
                    .property(.attribute, vocabulary == nil ? attribute(in: .text) : .string(anyOf: open.map(\.rawValue))),
                    .property(.op, operators),
                    .property(.value, .string(maxLength: Self.maximumValueLength)),
                ], description: text("'\(FilterOperator.is)' matches the whole value, '\(FilterOperator.contains)' a part.")))
            }
        }
        if !c.numericAttributes.isEmpty {
            schemas.append(.object([
                .property(.attribute, attribute(in: .number)),
                .property(.op, Self.operators(.number)),
                .property(.value, .number(minimum: -Self.numberBound, maximum: Self.numberBound)),
            ], description: text("The value is in the attribute's unit.")))
        }
        if !c.peopleAttributes.isEmpty {
            schemas.append(.object([
                .property(.attribute, .string(anyOf: c.peopleAttributes.map(\.rawValue))),
                .property(.op, Self.operators(.person)),
                .property(.value, .string(maxLength: Self.maximumValueLength)),
            ], description: c.hasContactResolver ? (compact ? "\"me\" is the user" : "A person's name or address; \"me\" is the user.") : nil))
        }
        return schemas
    }

    /// The stage alternatives, and whether an app's stage is among them. With a vocabulary, a
    /// custom stage's free strings are limited to the question's phrases, and a stage whose
    /// required string no phrase can fill sits out (`StageArgumentSchema`).
    private func stageSchemas(vocabulary: Vocabulary?) -> StageAlternatives {
        let c = capabilities
        func stage(_ name: String, _ properties: [GenerationSchema.Property], _ description: String?) -> GenerationSchema {
            .object([.property(.stage, .constant(.string(name)))] + properties, description: description)
        }
        var schemas: [GenerationSchema] = []
        for kind in c.stageKinds {
            switch kind {
            case .count:
                schemas.append(stage(kind.rawValue, [], nil))
            case .groupBy:
                var properties: [GenerationSchema.Property] = [.property(.attribute, attribute(in: .text, .number, .date))]
                if !c.dateAttributes.isEmpty {
                    properties.append(.property(.dateComponent, .string(anyOf: DateGroupingUnit.allCases.map(\.rawValue)), optional: true))
                }
                schemas.append(stage(kind.rawValue, properties, text("A count per value (dates per \(QueryKey.dateComponent)).")))
            case .statistic:
                schemas.append(stage(kind.rawValue, [
                    .property(.function, .string(anyOf: StatisticFunction.allCases.map(\.rawValue))),
                    .property(.attribute, attribute(in: .number), optional: true),
                ], text("Per group after \(BuiltInStage.groupBy); without \(QueryKey.attribute), of the counts.")))
            case .table:
                schemas.append(stage(kind.rawValue, [
                    .property(.columns, .array(of: .string(anyOf: c.fetchAttributes.map(\.rawValue)), minItems: 1,
                                               maxItems: min(6, c.fetchAttributes.count))),
                ], nil))
            case .score:
                schemas.append(stage(kind.rawValue, [
                    .property(.attribute, attribute(in: .number)),
                    .property(.order, Self.directions, optional: true),
                ], nil))
            }
        }
        var offersCustom = false
        for custom in c.customStages {
            var arguments = custom.argumentSchema
            if let vocabulary {
                guard let narrowed = StageArgumentSchema.narrowed(arguments, to: vocabulary.phrases) else { continue }
                arguments = narrowed
            }
            schemas.append(stage(custom.name, [.property(.arguments, arguments)], custom.description))
            offersCustom = true
        }
        return StageAlternatives(schemas: schemas, offersCustom: offersCustom)
    }

    /// The stages a query may hold, and whether an app's stage is among them (it then leads).
    private struct StageAlternatives {
        var schemas: [GenerationSchema]
        var offersCustom: Bool
    }

    /// The operators of one kind of filter, as the `op` enumeration.
    private static func operators(_ kind: FilterOperator.Kind) -> GenerationSchema {
        .string(anyOf: FilterOperator.of(kind).map(\.rawValue))
    }

    /// A sort's or a score stage's `order`.
    private static let directions = GenerationSchema.string(anyOf: SortDirection.allCases.map(\.rawValue))

    /// The tool's description: what it does and how it pairs with the fetch tool. The structured
    /// format leaves the query's shape to the schema in `parameters`; the compact one carries
    /// the schema itself, as a sketch rendered from the same `GenerationSchema` (see
    /// `SearchTool.includesSchemaInInstructions`).
    func toolDescription(fetchToolName: String) -> String {
        guard compact else {
            return "Searches the user's items; returns ids and attributes, not text (read one with \(fetchToolName)). Stages count and compute in the index."
        }
        return "Search the user's items; returns ids and attributes (read one with \(fetchToolName)). Arguments: "
            + SchemaSketch.render(arguments()) + ". Keys with ? are optional; no other keys."
    }
}
