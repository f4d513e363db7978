import Foundation
import LocalModel
import SearchIndex
import SearchTool
import Testing
import TestModelSupport

/// What the model reads costs fewer tokens without losing what it uses (issue 48 §2–3): the
/// guidance names only what this index holds and the model can use, and result rows do not
/// repeat themselves.
@Suite struct PromptCostTests {
    /// A trail with a position: latitude is held by the index, but results never show it.
    static func placedTrail() -> SearchableItem {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = "Placed Ridge"
        set.stateOrProvince = "Oregon"
        set.latitude = 45.5
        set.textContent = "A ridge with a known position."
        return SearchableItem(uniqueIdentifier: "trail-100", domainIdentifier: "trails", attributeSet: set)
    }

    /// The focused guide describes the attributes results show and its dates, not one it can
    /// neither show nor query (latitude); the complete guide, which can filter on latitude,
    /// describes it.
    @Test func setupInstructionsDescribeWhatTheGuideCanUse() async throws {
        let (index, _) = try await TrailCorpus.index(extra: [Self.placedTrail()])
        let focused = try await SearchSetup(index: index, guide: .focused)
        let complete = try await SearchSetup(index: index, guide: .complete)
        #expect(!focused.fetchAttributes.contains(.latitude))
        for attribute in focused.fetchAttributes {
            #expect(focused.instructions.contains("\n- \(attribute.rawValue)"), "\(attribute.rawValue) missing: \(focused.instructions)")
        }
        #expect(!focused.instructions.contains("latitude"))
        #expect(complete.instructions.contains("\n- latitude (in degrees): 45.5 to 45.5"))
        #expect(focused.heldAttributes.contains(.latitude) && !focused.heldAttributes.contains(.displayName))
    }

    /// Given the attributes the index holds, the complete guide offers those alone: no filter
    /// on a standard attribute no item has (displayName, pageCount, dueDate), no people filter
    /// when no item names a person, and custom ones it holds are offered by kind. Without them it
    /// offers every standard attribute, as Apple's complete guide does.
    @Test func completeGuideOffersTheHeldAttributes() async throws {
        let (index, _) = try await TrailCorpus.index()
        let held: [SearchableItemAttribute] = [.title, .stateOrProvince, .keywords, .rating, .duration, .completionDate, .textContent, TrailCorpus.distance]
        func schemaText(held: [SearchableItemAttribute]?) -> String {
            let source = IndexSource(index: index, fetchAttributes: [.title, .rating], customAttributeKinds: [TrailCorpus.distance: .number],
                                     heldAttributes: held)
            return SearchTool(configuration: .init(sources: [.index(source)], guide: .complete)).parameters.jsonSchema.jsonString
        }
        let narrow = schemaText(held: held)
        let wide = schemaText(held: nil)
        for absent in ["displayName", "pageCount", "dueDate", "authorNames", "includes"] {
            #expect(!narrow.contains("\"\(absent)\""), "\(absent) offered: \(narrow)")
            #expect(wide.contains("\"\(absent)\""))
        }
        for present in ["stateOrProvince", "duration", "completionDate", TrailCorpus.distance.rawValue] {
            #expect(narrow.contains("\"\(present)\""), "\(present) missing")
        }
        #expect(narrow.count < wide.count)
        // What the schema offers still runs: a filter on the custom number.
        let tool = SearchTool(configuration: .init(sources: [.index(IndexSource(index: index, fetchAttributes: [.title],
            customAttributeKinds: [TrailCorpus.distance: .number], heldAttributes: held))], guide: .complete))
        let query: JSONValue = ["filters": [["attribute": .string(TrailCorpus.distance.rawValue), "op": ">", "value": 15]]]
        #expect(throws: Never.self) { try tool.parameters.validate(["query": query], rootName: "arguments") }
        let output = try await tool.call(arguments: try #require(JSONValue.query(query.objectValue ?? [:])))
        #expect(output.contains("trail-004") && output.contains("trail-012") && !output.contains("trail-001"))
    }

    /// The focused guide's dates offer only the date attributes the index holds.
    @Test func focusedDatesAreTheHeldOnes() async throws {
        let (index, _) = try await TrailCorpus.index()
        let source = IndexSource(index: index, fetchAttributes: [.title], heldAttributes: [.title, .contentCreationDate])
        let text = SearchTool(configuration: .init(sources: [.index(source)], guide: .focused())).parameters.jsonSchema.jsonString
        #expect(text.contains("contentCreationDate") && !text.contains("contentModificationDate"))
        let open = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: .focused())).parameters.jsonSchema.jsonString
        #expect(open.contains("contentModificationDate"))
    }

    /// In the compact format the fetch tool's schema is sketched in its description, like the
    /// search tool's, with every key the grammar takes; the structured one keeps JSON Schema.
    @Test func compactFetchToolSketchesItsSchema() async throws {
        let (index, _) = try await TrailCorpus.index()
        let compact = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: Guide(level: .focused(.items), format: .compact))).fetchTool
        #expect(!compact.includesSchemaInInstructions)
        for key in ["id: string", "passage?: integer", "page?: integer", "around?: string"] {
            #expect(compact.description.contains(key), "\(key) missing from \(compact.description)")
        }
        let structured = SearchTool(configuration: .init(sources: [TrailCorpus.source(index)], guide: .focused())).fetchTool
        #expect(structured.includesSchemaInInstructions)
        #expect(!structured.description.contains("passage"))

        let vocabulary = try LocalModel.vocabularyOnly(contentsOf: TestModel.url)
        func tokens(_ tool: FetchItemTool) throws -> Int {
            let prompt = LanguageModelSession(model: vocabulary, tools: [tool]).systemPrompt
            let line = try #require(prompt.split(separator: "\n").first { $0.contains("\"name\": \"fetch_item\"") })
            return try vocabulary.tokenizer.countTokens(in: String(line), parseSpecial: false)
        }
        #expect(try tokens(compact) < tokens(structured))
    }

    /// An item whose description is its whole text: its row shows the words once, as the
    /// description, without a snippet repeating them; another item's row keeps its snippet.
    /// What the answer may quote of the row is unchanged.
    @Test(arguments: [FormatLevel.structured, .compact])
    func aSnippetRepeatingADescriptionIsLeftOut(format: FormatLevel) async throws {
        var set = SearchableItemAttributeSet(contentType: "public.text")
        set.title = "Short note"
        set.contentDescription = "Saw a heron by the lake at dawn."
        set.textContent = "Saw a heron by the lake at dawn."
        let note = SearchableItem(uniqueIdentifier: "note-1", domainIdentifier: "notes", attributeSet: set)
        let (index, _) = try await TrailCorpus.index(extra: [note])
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index, fetch: [.title, .contentDescription])],
                                                   guide: Guide(level: .complete, format: format)))
        let result = try await tool.result(for: try #require(JSONValue.query(["terms": ["lake"]])))
        let noteLine = try #require(result.text.split(separator: "\n").first { $0.contains("note-1") })
        let trailLine = try #require(result.text.split(separator: "\n").first { $0.contains("trail-001") })
        #expect(noteLine.components(separatedBy: "heron").count == 2, "\(noteLine)")
        #expect(trailLine.contains("swimming"), "\(trailLine)")
        if format == .structured {
            #expect(try JSONValue(parsing: String(noteLine)).objectValue?["snippet"] == nil)
            #expect(try JSONValue(parsing: String(trailLine)).objectValue?["snippet"] != nil)
        }
        let source = try #require(result.sources.first { $0.id == "note-1" })
        #expect(source.text.contains("Saw a heron by the lake at dawn."))
    }

    /// A compact result shows a passage column only when some row has a value for it: items of
    /// one passage each have no place to show, so no `at` column of dashes.
    @Test func compactRowsHaveNoEmptyPassageColumn() async throws {
        let (index, _) = try await TrailCorpus.index()
        let tool = SearchTool(configuration: .init(sources: [TrailCorpus.source(index, fetch: [.title])], guide: Guide(level: .complete, format: .compact)))
        let output = try await tool.call(arguments: try #require(JSONValue.query(["terms": ["lake"]])))
        #expect(output.contains("id | title | snippet\n"), "\(output)")
    }
}
