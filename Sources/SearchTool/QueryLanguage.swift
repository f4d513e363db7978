import LocalModel
import SearchIndex

/// The query language as one JSON schema per configuration: the tool's `parameters` (rendered
/// into the prompt as the description the model reads) and, through `GrammarCompiler`, the
/// grammar that constrains the call. Both come from `schema(vocabulary:)`, so they can never
/// disagree (the defect of forum thread 833651).
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
    }

    static let maximumTerms = 3
    static let maximumTermLength = 32
    static let maximumValueLength = 64
    static let maximumFilters = 3
    static let maximumStages = 3
    static let maximumLabelLength = 48
    static let numberBound = 1e9
    /// `today`, `this_month-1` (last month), `this_year+1`, or `2024-05-01`.
    static let datePattern = #"((now|today|yesterday|this_week|this_month|this_year)([+-][0-9]{1,3})?|[0-9]{4}-[0-9]{2}-[0-9]{2})"#

    private var compact: Bool { capabilities.format == .compact }
    private func text(_ structured: String, _ terse: String) -> String { compact ? terse : structured }

    /// The `{"query": …}` arguments object.
    func arguments(vocabulary: Vocabulary? = nil) -> GenerationSchema {
        .object([.property("query", query(vocabulary: vocabulary))])
    }

    /// The query object, open (`vocabulary == nil`, what the description shows) or tightened to
    /// one request's words (what that request's grammar enforces); the tightened one accepts a
    /// subset of the open one, so validating against the open schema always passes.
    func query(vocabulary: Vocabulary? = nil) -> GenerationSchema {
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
                properties.append(.property("terms", .array(of: term, description: text(
                    "Words to find in the items' text (all must appear). Use the topic's words, not words like 'find' or 'show'.",
                    "Topic words to find"), minItems: 1, maxItems: Self.maximumTerms), optional: true))
            }
        }
        let filters = filterSchemas(vocabulary: vocabulary)
        if !filters.isEmpty {
            properties.append(.property("filters", .array(of: filters.count == 1 ? filters[0] : .oneOf(filters),
                                                          description: text("Conditions every result meets.", "Conditions"),
                                                          minItems: 1, maxItems: Self.maximumFilters), optional: true))
        }
        if !c.dateAttributes.isEmpty {
            let date = GenerationSchema.string(pattern: Self.datePattern)
            properties.append(.property("dates", .object([
                .property("attribute", .string(anyOf: c.dateAttributes.map(\.rawValue))),
                .property("from", date),
                .property("to", date, optional: true),
            ], description: text(
                "A date range. Dates are YYYY-MM-DD or a variable: now, today, yesterday, this_week, this_month, this_year, with an offset (this_month-1 is last month). 'from' alone means within that day, week, month or year; 'to' is inclusive.",
                "Date range: YYYY-MM-DD or today/this_week/this_month/this_year, offset like this_month-1")), optional: true))
        }
        if c.contentType {
            properties.append(.property("contentType", .string(description: text("A content type such as public.text or public.pdf.", "Content type"),
                                                               maxLength: Self.maximumValueLength), optional: true))
        }
        if c.sort {
            let sortable = c.numericAttributes + c.dateAttributes
            properties.append(.property("sort", .object([
                .property("attribute", .string(anyOf: ["relevance"] + sortable.map(\.rawValue))),
                .property("order", .string(anyOf: ["descending", "ascending"])),
            ]), optional: true))
        }
        let stages = stageSchemas()
        if !stages.isEmpty {
            properties.append(.property("stages", .array(of: stages.count == 1 ? stages[0] : .oneOf(stages), description: text(
                "Computations run inside the index on the results, in order; each stage works on the previous one's output.",
                "Stages run on the results, in order"), minItems: 1, maxItems: Self.maximumStages), optional: true))
        }
        properties.append(.property("limit", .integer(description: text("How many results to show.", "Results to show"),
                                                      minimum: 1, maximum: c.maximumLimit), optional: true))
        properties.append(.property("label", .string(description: text("A short title for these results.", "Title"),
                                                     maxLength: Self.maximumLabelLength), optional: true))
        return .object(properties, description: text(
            "A search of the user's index, optionally followed by stages that count, group, or compute over the results.",
            "Search, then optional stages"))
    }

    private func filterSchemas(vocabulary: Vocabulary?) -> [GenerationSchema] {
        let c = capabilities
        var schemas: [GenerationSchema] = []
        if !c.stringAttributes.isEmpty {
            let operators = GenerationSchema.string(anyOf: ["is", "contains"])
            let few = c.stringAttributes.filter { vocabulary?.values[$0]?.isEmpty == false }
            let open = c.stringAttributes.filter { !few.contains($0) }
            for attribute in few {
                let values = (vocabulary?.values[attribute] ?? []).filter { $0.count <= Self.maximumValueLength }
                schemas.append(.object([
                    .property("attribute", .string(anyOf: [attribute.rawValue])),
                    .property("op", operators),
                    .property("value", .string(anyOf: values)),
                ]))
            }
            if !open.isEmpty {
                schemas.append(.object([
                    .property("attribute", .string(anyOf: open.map(\.rawValue))),
                    .property("op", operators),
                    .property("value", .string(maxLength: Self.maximumValueLength)),
                ], description: text("Text attribute is (exactly) or contains a value.", "Text filter")))
            }
        }
        if !c.numericAttributes.isEmpty {
            schemas.append(.object([
                .property("attribute", .string(anyOf: c.numericAttributes.map(\.rawValue))),
                .property("op", .string(anyOf: ["=", "<", "<=", ">", ">="])),
                .property("value", .number(minimum: -Self.numberBound, maximum: Self.numberBound)),
            ], description: text("Numeric attribute compared with a number (in the attribute's unit).", "Number filter")))
        }
        if !c.peopleAttributes.isEmpty {
            schemas.append(.object([
                .property("attribute", .string(anyOf: c.peopleAttributes.map(\.rawValue))),
                .property("op", .string(anyOf: ["includes"])),
                .property("value", .string(maxLength: Self.maximumValueLength)),
            ], description: c.hasContactResolver
                ? text("A person among the item's people; write \"me\" for the user.", "Person; \"me\" is the user")
                : text("A person's name or address among the item's people.", "Person")))
        }
        return schemas
    }

    private func stageSchemas() -> [GenerationSchema] {
        let c = capabilities
        func stage(_ name: String, _ properties: [GenerationSchema.Property], _ structured: String, _ terse: String) -> GenerationSchema {
            .object([.property("stage", .constant(.string(name)))] + properties, description: text(structured, terse))
        }
        var schemas: [GenerationSchema] = []
        for kind in c.stageKinds {
            switch kind {
            case .count:
                schemas.append(stage("count", [], "How many results (or groups) there are.", "Count"))
            case .groupBy:
                var properties: [GenerationSchema.Property] = [.property("attribute", .string(anyOf: c.groupableAttributes.map(\.rawValue)))]
                if !c.dateAttributes.isEmpty {
                    properties.append(.property("dateComponent", .string(anyOf: DateGroupingUnit.allCases.map(\.rawValue)), optional: true))
                }
                schemas.append(stage("groupBy", properties,
                                     "Groups results by an attribute's value (dates by dateComponent), with a count per group.", "Group and count"))
            case .statistic:
                schemas.append(stage("statistic", [
                    .property("function", .string(anyOf: ["sum", "avg", "min", "max"])),
                    .property("attribute", .string(anyOf: c.numericAttributes.map(\.rawValue)), optional: true),
                ], "Sum, average, minimum or maximum of a numeric attribute (per group after groupBy; without attribute, over the group counts).",
                   "Sum/avg/min/max of an attribute"))
            case .table:
                schemas.append(stage("table", [
                    .property("columns", .array(of: .string(anyOf: c.fetchAttributes.map(\.rawValue)), minItems: 1, maxItems: 6)),
                ], "Shows the results as a table of these attributes.", "Table of attributes"))
            case .score:
                schemas.append(stage("score", [
                    .property("attribute", .string(anyOf: c.numericAttributes.map(\.rawValue))),
                    .property("order", .string(anyOf: ["descending", "ascending"]), optional: true),
                ], "Ranks the results by a numeric attribute; the best come first with their score.", "Rank by attribute"))
            }
        }
        for custom in c.customStages {
            schemas.append(stage(custom.name, [.property("arguments", custom.argumentSchema)], custom.description, custom.description))
        }
        return schemas
    }

    /// The tool's description: what it does and how it pairs with the fetch tool. The query's
    /// shape is NOT restated here; it is in the schema, the one place it is written.
    func toolDescription(fetchToolName: String) -> String {
        text("Searches the user's own indexed items and returns their identifiers and attributes, never their full text; call \(fetchToolName) with an id to read an item. Use stages to count, group or compute instead of listing many items.",
             "Search the user's items; returns ids and attributes. Read one with \(fetchToolName).")
    }
}
