import Foundation
import Testing
import LocalModel
import TokenBudget
import TestModelSupport

/// Guided generation (`respond(to:generating:)`) with the real default model: the answer is a
/// value of the type by construction, even from a 135M-parameter model at temperature 0.8.
@Suite("Guided generation with the real default model", .serialized)
struct GuidedGenerationTests {
    enum Difficulty: String, Generable, Codable, CaseIterable, Sendable {
        case easy, moderate, hard
    }

    struct Trailhead: Generable, Codable, Sendable {
        var name: String
        var elevation: Int
        static let generationSchema: GenerationSchema = .object([
            .property("name", .string(description: "Trailhead name", maxLength: 12)),
            .property("elevation", .integer(description: "Metres above sea level", in: 0...4000)),
        ])
    }

    /// Nested struct, enum, array with an exact count, optional, numbers in ranges.
    struct TrailReport: Generable, Codable, Sendable {
        var trailhead: Trailhead
        var difficulty: Difficulty
        var tags: [String]
        var distanceKm: Double
        var notes: String?
        static let generationSchema: GenerationSchema = .object([
            .property("trailhead", Trailhead.self),
            .property("difficulty", Difficulty.self),
            .property("tags", .array(of: .string(maxLength: 8), count: 2)),
            .property("distanceKm", .number(description: "Length of the trail", in: 1...42)),
            .property("notes", .string(maxLength: 12), optional: true),
        ], description: "A short report on a hiking trail")
    }

    struct PackingList: Generable, Codable, Sendable {
        struct Item: Codable, Sendable {
            var name: String
            var quantity: Int
        }
        var items: [Item]
        var waterproof: Bool
        static let generationSchema: GenerationSchema = .object([
            .property("items", .array(of: .object([
                .property("name", .string(maxLength: 8)),
                .property("quantity", .integer(in: 1...9)),
            ]), count: 1...3)),
            .property("waterproof", .boolean()),
        ])
    }

    /// A pattern with a lookahead: no GBNF grammar can express it.
    struct Unsupported: Generable, Codable, Sendable {
        var code: String
        static let generationSchema: GenerationSchema = .object([
            .property("code", .string(pattern: "(?=[A-Z])[A-Z0-9]{4}")),
        ])
    }

    /// 512 tokens hold the longest value these schemas admit (about 400 bytes for a
    /// `TrailReport` whose strings are all escapes; a token is at least a byte), so an answer
    /// decodes however long the strings the model chose to write; the model stops where the
    /// grammar ends, so a short answer costs no more.
    func options(seed: UInt32, tokens: Int = 512, mode: GenerationOptions.ToolCallingMode = .allowed) -> GenerationOptions {
        GenerationOptions(sampling: .random(top: 40, seed: seed), temperature: 0.8, maximumResponseTokens: tokens, toolCallingMode: mode)
    }

    /// Every one of 20 seeded runs decodes; the value also re-encodes to the generated content
    /// and meets the constraints the Swift type alone does not enforce.
    func decodesInTwentyRuns<T: Generable & Sendable>(_ type: T.Type, _ prompt: String,
                                                      check: (T) -> Bool) async throws {
        let model = try TestModel.shared()
        for seed in UInt32(1)...20 {
            let session = LanguageModelSession(model: model, contextWindow: .k4)
            let response = try await session.respond(to: prompt, generating: type, options: options(seed: seed))
            #expect(throws: Never.self, "seed \(seed)") { try T.generationSchema.validate(response.rawContent) }
            #expect(try response.content.generatedContent == response.rawContent, "seed \(seed): \(response.rawContent)")
            #expect(check(response.content), "seed \(seed): \(response.rawContent)")
            let last = response.transcriptEntries.last
            #expect(last.map { if case .response(let r) = $0 { (try? JSONValue(parsing: r.text)) == response.rawContent } else { false } } == true)
        }
    }

    @Test func nestedStructsEnumsCountsOptionalsAndRangesDecodeInTwentySeededRuns() async throws {
        try await decodesInTwentyRuns(TrailReport.self, "Describe a mountain trail near a lake.") { report in
            (0...4000).contains(report.trailhead.elevation) && report.trailhead.name.unicodeScalars.count <= 12
                && report.tags.count == 2 && (1...42).contains(report.distanceKm)
                && (report.notes?.unicodeScalars.count ?? 0) <= 12
        }
    }

    @Test func arraysOfObjectsDecodeInTwentySeededRuns() async throws {
        try await decodesInTwentyRuns(PackingList.self, "What should I pack for a rainy day hike?") { list in
            (1...3).contains(list.items.count) && list.items.allSatisfy { (1...9).contains($0.quantity) }
        }
    }

    @Test func anEnumAloneDecodesInTwentySeededRuns() async throws {
        try await decodesInTwentyRuns(Difficulty.self, "How hard is a 30 km hike with 2000 m of climbing?") {
            Difficulty.allCases.contains($0)
        }
    }

    @Test func streamingSnapshotsArePrefixesOfTheFinalValue() async throws {
        let model = try TestModel.shared()
        for seed in UInt32(1)...3 {
            let session = LanguageModelSession(model: model, contextWindow: .k4)
            let stream = session.streamResponse(to: "Describe a desert trail.", generating: TrailReport.self, options: options(seed: seed))
            var snapshots: [GeneratedContent] = []
            for try await snapshot in stream { snapshots.append(snapshot.rawContent) }
            let response = try await stream.collect()
            #expect(snapshots.count >= 3, "seed \(seed): \(snapshots.count) snapshots")
            #expect(snapshots.last == response.rawContent, "seed \(seed)")
            for (earlier, later) in zip(snapshots, snapshots.dropFirst()) {
                #expect(isCompletedPart(earlier, of: later), "seed \(seed): \(earlier) then \(later)")
            }
            for snapshot in snapshots {
                #expect(isCompletedPart(snapshot, of: response.rawContent), "seed \(seed): \(snapshot) vs \(response.rawContent)")
            }
        }
    }

    @Test func anUnsupportedSchemaFailsBeforeDecoding() async throws {
        let session = LanguageModelSession(model: try TestModel.shared(), contextWindow: .k4)
        do {
            _ = try await session.respond(to: "Give me a code.", generating: Unsupported.self)
            Issue.record("an unsupported schema was accepted")
        } catch LanguageModelSession.GenerationError.invalidGenerationSchema(let type, let error) {
            #expect(type == "Unsupported")
            #expect(String(describing: error).contains("lookaround"), "\(error)")
            #expect(String(describing: error).contains("#/properties/code"), "\(error)")
        }
        #expect(await session.engineCounters.tokensDecoded == 0)
        #expect(session.transcript.isEmpty)
        #expect(!session.isResponding)
    }

    @Test func anAnswerCutOffByTheTokenLimitIsATypedDecodingFailure() async throws {
        let session = LanguageModelSession(model: try TestModel.shared(), contextWindow: .k4)
        do {
            _ = try await session.respond(to: "Describe a trail.", generating: TrailReport.self, options: options(seed: 1, tokens: 6))
            Issue.record("six tokens decoded as a whole TrailReport")
        } catch LanguageModelSession.GenerationError.decodingFailure(let type, let rawText, _) {
            #expect(type == "TrailReport")
            #expect(rawText.hasPrefix("{"), "\(rawText)")
            #expect(GeneratedContent(parsingPrefix: rawText) != nil, "\(rawText)")
        }
    }

    @Test func theSchemaInThePromptIsCountedInTheBudget() async throws {
        let model = try TestModel.shared()
        var promptTokens: [Bool: Int] = [:]
        for include in [true, false] {
            let session = LanguageModelSession(model: model, contextWindow: .k4)
            let response = try await session.respond(to: "Pack for a hike.", generating: PackingList.self,
                                                     includeSchemaInPrompt: include, options: options(seed: 1))
            let prompt = response.transcriptEntries.first.map { if case .prompt(let p) = $0 { p.text } else { "" } } ?? ""
            #expect(prompt.contains("\"quantity\"") == include, "\(prompt)")
            promptTokens[include] = try #require(session.lastBudgetReport).tokens(of: .prompt)
            #expect(promptTokens[include] == (try model.tokenCounter.countTokens(in: prompt)))
        }
        #expect((promptTokens[true] ?? 0) > (promptTokens[false] ?? 0) + 50, "\(promptTokens)")
    }

    /// Holds a fact the model cannot guess, so a correct answer must come from the tool.
    struct LockerCodeTool: Tool {
        struct Arguments: Generable, Codable {
            var trail: String
            static let generationSchema: GenerationSchema = .object([
                .property("trail", .string(anyOf: ["Alpine Loop", "Cedar Falls"])),
            ])
        }
        let name = "locker_code"
        let description = "Returns the trailhead locker code for a trail."
        func call(arguments: Arguments) async throws -> String { "The locker code at \(arguments.trail) is 7391." }
    }

    struct LockerAnswer: Generable, Codable, Sendable {
        var trail: String
        var code: Int
        static let generationSchema: GenerationSchema = .object([
            .property("trail", .string(anyOf: ["Alpine Loop", "Cedar Falls"])),
            .property("code", .integer(in: 0...9999)),
        ])
    }

    @Test(arguments: [GenerationOptions.ToolCallingMode.required, .allowed])
    func toolRoundsThenAConstrainedAnswer(mode: GenerationOptions.ToolCallingMode) async throws {
        let model = try TestModel.shared()
        for seed in UInt32(1)...3 {
            let session = LanguageModelSession(model: model, tools: [LockerCodeTool()],
                                               instructions: "Use the locker_code tool to look up locker codes.", contextWindow: .k4,
                                               maximumToolRounds: 1)
            let response = try await session.respond(to: "What is the locker code at Cedar Falls?", generating: LockerAnswer.self,
                                                     options: options(seed: seed, tokens: 96, mode: mode))
            let calls = response.transcriptEntries.filter { if case .toolCalls = $0 { true } else { false } }
            let outputs = response.transcriptEntries.compactMap { if case .toolOutput(let o) = $0 { o } else { nil } }
            if mode == .required { #expect(!calls.isEmpty, "seed \(seed)") }
            #expect(outputs.count >= calls.count && outputs.allSatisfy { !$0.isError }, "seed \(seed)")
            #expect(throws: Never.self) { try LockerAnswer.generationSchema.validate(response.rawContent) }
            #expect(response.usage.rounds == calls.count + 1 && calls.count <= 1, "seed \(seed)")
        }
    }

    // MARK: Partial content, without the model

    @Test func prefixesOfAJSONTextHoldOnlyCompletedValues() throws {
        let text = #"{"name": "Mesa \"Rim\"", "stats": {"km": 12.5, "up": [10, 200]}, "tags": ["a,b", "c"], "ok": true}"#
        let whole = try JSONValue(parsing: text)
        var previous: JSONValue?
        for end in text.indices {
            let prefix = String(text[..<end])
            let part = JSONValue(parsingPrefix: prefix)
            if let part {
                #expect(isCompletedPart(part, of: whole), "\(prefix) gave \(part)")
                if let previous { #expect(isCompletedPart(previous, of: part), "\(prefix)") }
                previous = part
            } else {
                #expect(previous == nil, "\(prefix) gave nothing after \(String(describing: previous))")
            }
        }
        #expect(JSONValue(parsingPrefix: text) == whole)
        #expect(JSONValue(parsingPrefix: #"{"name": "Mesa", "stats": {"km": 12"#) == ["name": "Mesa", "stats": [:]])
        #expect(JSONValue(parsingPrefix: #"{"name": "Me"#) == [:])
        #expect(JSONValue(parsingPrefix: #"{"tags": ["a", "b"#) == ["tags": ["a"]])
        #expect(JSONValue(parsingPrefix: "") == nil)
        #expect(JSONValue(parsingPrefix: "{]") == nil)
    }

    @Test func schemaBuildersForGuides() throws {
        #expect(Difficulty.generationSchema == .string(anyOf: ["easy", "moderate", "hard"]))
        let nested = GenerationSchema.Property.property("trailhead", Trailhead.self, description: "Where it starts")
        #expect(nested.schema.description == "Where it starts" && nested.schema.kind == Trailhead.generationSchema.kind)
        #expect(GenerationSchema.array(of: .boolean(), count: 2).jsonSchema["minItems"] == 2)
        #expect(GenerationSchema.array(of: .boolean(), count: 2).jsonSchema["maxItems"] == 2)
        let grammar = try GrammarCompiler().grammar(for: TrailReport.generationSchema,
                                                    orToolCalls: [.init(name: "locker_code", arguments: LockerCodeTool.Arguments.generationSchema)])
        #expect(grammar.gbnf.contains("<tool_call>") && grammar.gbnf.contains("distanceKm"))
    }
}

/// Whether `part` is what a stream may show of `whole`: the same scalars, and objects and
/// arrays holding a leading run of `whole`'s members whose last one may itself be partial.
func isCompletedPart(_ part: JSONValue, of whole: JSONValue) -> Bool {
    switch (part, whole) {
    case (.object(let p), .object(let w)):
        guard p.keys.count <= w.keys.count, Array(w.keys.prefix(p.keys.count)) == p.keys else { return false }
        return p.keys.enumerated().allSatisfy { index, key in
            guard let a = p[key], let b = w[key] else { return false }
            return index == p.keys.count - 1 ? isCompletedPart(a, of: b) : a == b
        }
    case (.array(let p), .array(let w)):
        guard p.count <= w.count else { return false }
        return p.indices.allSatisfy { index in index == p.count - 1 ? isCompletedPart(p[index], of: w[index]) : p[index] == w[index] }
    default:
        return part == whole
    }
}
