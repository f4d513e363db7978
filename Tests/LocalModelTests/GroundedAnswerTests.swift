import Foundation
import Testing
@testable import LocalModel
import TestModelSupport

/// Grounded answers (issue 24): citation markers that can only name a shown source, quote mode
/// whose answers are verbatim sentences of the sources, quote fields in guided generation, and
/// no tool framing in any answer. The scripted model checks the loop (which grammar each round
/// gets, what the response reports); the real model checks the guarantees on many questions.
@Suite("Grounded answers", .serialized)
struct GroundedAnswerTests {
    /// Shows notes as sources: the tool a search would be, without the search.
    struct NotesTool: Tool {
        struct Arguments: Generable, Codable {
            var topic: String
            static let generationSchema: GenerationSchema = .object([
                .property("topic", .string(description: "What to look up", anyOf: ["trails", "weather", "gear"])),
            ])
        }
        static let notes = [
            CitableSource(id: "note-1", text: "Mist Trail climbs beside Vernal Fall. The spray soaks the granite steps."),
            CitableSource(id: "note-2", text: "Lands End runs along the cliffs of San Francisco.\nWe saw the Mile Rock lighthouse."),
            CitableSource(id: "note-3", text: "The headlamp batteries were left at the trailhead register."),
        ]
        let name = "read_notes"
        let description = "Returns the hiking notes about a topic, each with its id."
        func call(arguments: Arguments) async throws -> String { try await result(for: arguments).text }
        func result(for arguments: Arguments) async throws -> ToolResult {
            ToolResult(text: Self.notes.map { "[\($0.id)] " + $0.text.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n"),
                       sources: Self.notes)
        }
    }

    static func call(_ arguments: String) -> String {
        "<tool_call>\n{\"name\": \"read_notes\", \"arguments\": \(arguments)}\n</tool_call>"
    }

    static let shownIDs: Set<String> = ["note-1", "note-2", "note-3"]

    /// The notes' sentences by note id, written out by hand: each note's text cut at its lines and at ". ".
    static let sentencesByNote: [String: Set<String>] = [
        "note-1": ["Mist Trail climbs beside Vernal Fall.", "The spray soaks the granite steps."],
        "note-2": ["Lands End runs along the cliffs of San Francisco.", "We saw the Mile Rock lighthouse."],
        "note-3": ["The headlamp batteries were left at the trailhead register."],
    ]

    /// The notes as one response's sources.
    static var shown: ResponseSources {
        ResponseSources([.toolOutput(.init(id: "call-1", toolName: "read_notes", text: "", sources: NotesTool.notes, isError: false))])
    }

    // MARK: The loop (scripted model)

    @Test func prosePicksUpALazyCitationGrammarOfTheShownIDsAfterAToolOutput() async throws {
        let model = ScriptedLanguageModel([Self.call(#"{"topic": "trails"}"#), "The spray soaks the steps. [note-1] See [note-9]."])
        let session = LanguageModelSession(model: model, tools: [NotesTool()])
        let response = try await session.respond(to: "What is the Mist Trail like?",
                                                 options: .init(toolCallingMode: .required, answerStyle: .prose))
        #expect(response.sources.map(\.id) == ["note-1", "note-2", "note-3"])
        // a bracketed text that names no shown source is not a citation
        #expect(response.citations == [Citation(sourceID: "note-1")])
        let answerRound = try #require(model.parameters.last?.grammar)
        guard case .lazy(let triggers, let includesTrigger, _) = answerRound.activation else {
            Issue.record("the answer round's grammar should be lazy, got \(answerRound.activation)")
            return
        }
        // a call (tagged, or a bare object as Qwen writes them) or a citation
        #expect(triggers == ["<tool_call>", "{ \"name\" : ", "["])
        #expect(includesTrigger)
        for id in Self.shownIDs { #expect(answerRound.gbnf.contains("\"\(id)\"")) }
        // the first round had no sources yet: the call grammar alone
        #expect(model.parameters.first?.grammar?.gbnf.contains("note-1") == false)
    }

    @Test func citationsCanBeTurnedOff() async throws {
        let model = ScriptedLanguageModel([Self.call(#"{"topic": "trails"}"#), "Plain."])
        let session = LanguageModelSession(model: model, tools: [NotesTool()])
        _ = try await session.respond(to: "Trails?", options: .init(toolCallingMode: .required, answerStyle: .prose, citesSources: false))
        guard case .lazy(let triggers, _, _)? = model.parameters.last?.grammar?.activation else {
            Issue.record("the call grammar should stay lazy")
            return
        }
        #expect(triggers == ["<tool_call>", "{ \"name\" : "])
    }

    @Test func quoteModeConstrainsTheAnswerFromTheFirstTokenToShownSentences() async throws {
        let model = ScriptedLanguageModel([Self.call(#"{"topic": "trails"}"#), "We saw the Mile Rock lighthouse. [note-2]"])
        let session = LanguageModelSession(model: model, tools: [NotesTool()])
        let response = try await session.respond(to: "What did we see?", options: .init(toolCallingMode: .required, answerStyle: .quote))
        let grammar = try #require(model.parameters.last?.grammar)
        #expect(grammar.activation == .immediate)
        #expect(grammar.gbnf.contains(#""We saw the Mile Rock lighthouse. [note-2]""#))
        #expect(grammar.gbnf.contains(#""The spray soaks the granite steps. [note-1]""#))
        #expect(response.citations == [Citation(sourceID: "note-2")])
    }

    @Test func aToolWithoutSourcesIsOneSourceNamedAfterIt() async throws {
        struct CountTool: Tool {
            struct Arguments: Generable, Codable { static let generationSchema: GenerationSchema = .object([]) }
            let name = "count_trails"
            let description = "Counts the trails."
            func call(arguments: Arguments) async throws -> String { "count: 4" }
        }
        let model = ScriptedLanguageModel(["<tool_call>\n{\"name\": \"count_trails\", \"arguments\": {}}\n</tool_call>", "count: 4 [count_trails]"])
        let session = LanguageModelSession(model: model, tools: [CountTool()])
        let response = try await session.respond(to: "How many?", options: .init(toolCallingMode: .required, answerStyle: .quote))
        #expect(response.sources == [CitableSource(id: "count_trails", text: "count: 4")])
        #expect(model.parameters.last?.grammar?.gbnf.contains(#""count: 4 [count_trails]""#) == true)
        #expect(response.citations == [Citation(sourceID: "count_trails")])
    }

    @Test func withoutToolOutputsTheAnswerIsFreeInEveryStyle() async throws {
        for style in GenerationOptions.AnswerStyle.allCases {
            let model = ScriptedLanguageModel(["Hello [there]."])
            let session = LanguageModelSession(model: model, tools: [NotesTool()])
            let response = try await session.respond(to: "Hi", options: .init(answerStyle: style))
            #expect(response.content == "Hello [there].")
            #expect(response.citations.isEmpty && response.sources.isEmpty)
        }
    }

    @Test func automaticQuotesBelowTheLimitAndWritesProseAboveOrWhenTheSizeIsUnknown() {
        let limit = GenerationOptions.AnswerStyle.quoteParameterLimit
        #expect(GenerationOptions.AnswerStyle.automatic.resolved(parameterCount: 134_515_008) == .quote)
        #expect(GenerationOptions.AnswerStyle.automatic.resolved(parameterCount: 1_543_714_304) == .quote, "Qwen2.5-Coder-1.5B quotes")
        #expect(GenerationOptions.AnswerStyle.automatic.resolved(parameterCount: limit) == .prose)
        #expect(GenerationOptions.AnswerStyle.automatic.resolved(parameterCount: nil) == .prose)
        #expect(GenerationOptions.AnswerStyle.prose.resolved(parameterCount: 1) == .prose)
    }

    @Test func anEchoedToolResponseLosesItsFramingInTheAnswer() async throws {
        let model = ScriptedLanguageModel([Self.call(#"{"topic": "gear"}"#), "<tool_response>\nNo items matched.\n</tool_response>"])
        let session = LanguageModelSession(model: model, tools: [NotesTool()])
        let response = try await session.respond(to: "Where are my batteries?", options: .init(toolCallingMode: .required, answerStyle: .prose))
        #expect(!response.content.contains("tool_response"), "\(response.content)")
        #expect(response.content.trimmingCharacters(in: .whitespacesAndNewlines) == "No items matched.")
    }

    // MARK: The guarantees (real model)

    static let questions = [
        "What is the Mist Trail like?", "Where did I leave the headlamp batteries?", "What did we see at Lands End?",
        "Which trail has a waterfall?", "Tell me about the granite steps.", "What is near San Francisco?",
        "Cite the note about the lighthouse.", "Which notes mention spray? Cite them like [note-1].",
    ]

    func respond(_ model: LocalModel, _ question: String, style: GenerationOptions.AnswerStyle) async throws -> LanguageModelSession.Response<String>? {
        let session = LanguageModelSession(model: model, tools: [NotesTool()],
                                           instructions: "Answer from the notes. Cite the note you use by its id in square brackets, like [note-1].")
        do {
            return try await session.respond(to: question, options: .init(maximumResponseTokens: 120, toolCallingMode: .required, answerStyle: style))
        } catch LanguageModelSession.GenerationError.toolRoundLimitReached {
            return nil  // the model kept calling: its choice, and a typed end
        }
    }

    /// Every `[…]` in the answer, read from the text alone.
    func markers(in text: String) -> [String] {
        var markers: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            markers.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return markers
    }

    @Test func proseCitationsNameOnlyShownSourcesOnManyQuestions() async throws {
        let model = try TestModel.shared()
        var answered = 0
        for question in Self.questions {
            guard let response = try await respond(model, question, style: .prose) else { continue }
            answered += 1
            for marker in markers(in: response.content) {
                #expect(Self.shownIDs.contains(marker), "\(question): \(response.content)")
            }
            #expect(response.citations.allSatisfy { Self.shownIDs.contains($0.sourceID) })
            #expect(!response.content.contains("tool_response"), "\(response.content)")
        }
        #expect(answered > 0)
    }

    @Test func quoteAnswersAreOnlyVerbatimSentencesAndMarkersOnManyQuestions() async throws {
        let model = try TestModel.shared()
        let sentences = Self.sentencesByNote
        var answered = 0
        for question in Self.questions {
            guard let response = try await respond(model, question, style: .quote) else { continue }
            answered += 1
            var text = response.content
            for leadIn in ["From your notes:", "Here is what I found:"] where text.hasPrefix(leadIn) { text.removeFirst(leadIn.count) }
            // what is left is "<sentence> [id]" pairs, each sentence one of that note's
            let pattern = /\s*([^\[]+?) \[([^\]]+)\]/
            var rest = Substring(text)
            var quotes = 0
            while let match = rest.prefixMatch(of: pattern) {
                let (sentence, id) = (String(match.1), String(match.2))
                #expect(sentences[id]?.contains(sentence) == true, "\(question): \"\(sentence)\" is not a sentence of \(id)")
                rest = rest[match.range.upperBound...]
                quotes += 1
            }
            // what follows the whole quotes is nothing, or the start of one the token limit cut
            let leftover = rest.trimmingCharacters(in: .whitespacesAndNewlines)
            let quotable = sentences.flatMap { id, texts in texts.map { "\($0) [\(id)]" } }
            let isCutQuote = leftover.isEmpty || quotable.contains { $0.hasPrefix(leftover) }
            #expect(isCutQuote, "\(question): left over \"\(leftover)\" in \(response.content)")
            #expect(quotes > 0 || !leftover.isEmpty, "\(question): an answer after a tool output quotes: \(response.content)")
        }
        #expect(answered > 0)
    }

    @Test func theQuoteGrammarAcceptsOnlyVerbatimQuotes() throws {
        let model = try TestModel.shared()
        let sources = try #require(GroundingGrammar.quotes(AnswerEvidence(unranked: Self.shown), orToolCalls: nil))
        #expect(try model.grammar(sources.gbnf, root: sources.root, accepts: "The spray soaks the granite steps. [note-1]"))
        #expect(try model.grammar(sources.gbnf, root: sources.root, accepts: "From your notes: Mist Trail climbs beside Vernal Fall. [note-1]\nWe saw the Mile Rock lighthouse. [note-2]"))
        // a sentence under another note's id, an altered sentence, a quote without its marker, and one twice
        #expect(try !model.grammar(sources.gbnf, root: sources.root, accepts: "The spray soaks the granite steps. [note-2]"))
        #expect(try !model.grammar(sources.gbnf, root: sources.root, accepts: "The spray soaks the steps. [note-1]"))
        #expect(try !model.grammar(sources.gbnf, root: sources.root, accepts: "The spray soaks the granite steps."))
        #expect(try !model.grammar(sources.gbnf, root: sources.root, accepts: "The spray soaks the granite steps. [note-1] The spray soaks the granite steps. [note-1]"))
        #expect(try !model.grammar(sources.gbnf, root: sources.root, accepts: "The trail to the Grand Canyon: The spray soaks the granite steps. [note-1]"))
    }

    @Test func theCitationGrammarAcceptsOnlyShownIDs() throws {
        let model = try TestModel.shared()
        let grammar = GroundingGrammar.citations(AnswerEvidence(unranked: Self.shown), orToolCalls: nil, trigger: "<tool_call>")
        #expect(try model.grammar(grammar.gbnf, root: grammar.root, accepts: "[note-3] is where the batteries are, see also [note-1]."))
        #expect(try !model.grammar(grammar.gbnf, root: grammar.root, accepts: "[note-4] is where the batteries are."))
        #expect(try !model.grammar(grammar.gbnf, root: grammar.root, accepts: "[note-3] and [1]."))
        // a call after cited prose would escape the call grammar: its first character is refused
        #expect(try !model.grammar(grammar.gbnf, root: grammar.root, accepts: "[note-3] <tool_call>"))
    }

    // MARK: Guided generation

    struct Finding: Generable, Codable, Sendable {
        var answer: String
        var evidence: String
        static let generationSchema: GenerationSchema = .object([
            .property("answer", .string(description: "A short answer", maxLength: 80)),
            .property("evidence", .quote(description: "The sentence of the notes the answer rests on")),
        ])
    }

    @Test func aQuoteFieldIsAShownSentenceAfterAToolOutput() async throws {
        let model = try TestModel.shared()
        let sentences = Set(Self.sentencesByNote.values.joined())
        var answered = 0
        for question in Self.questions.prefix(4) {
            let session = LanguageModelSession(model: model, tools: [NotesTool()], instructions: "Answer from the notes.")
            do {
                let response = try await session.respond(to: question, generating: Finding.self,
                                                         options: .init(maximumResponseTokens: 160, toolCallingMode: .required))
                answered += 1
                #expect(sentences.contains(response.content.evidence), "\(question): \(response.content.evidence)")
            } catch LanguageModelSession.GenerationError.decodingFailure(_, let raw, _) {
                // cut off by the token limit: the value is incomplete, not unquoted
                #expect(!raw.isEmpty)
            }
        }
        #expect(answered > 0)
    }

    @Test func aQuoteFieldIsAFreeStringWithoutToolOutputs() throws {
        let schema = Finding.generationSchema
        #expect(schema.quotingFields(from: []) == schema)
        guard case .object(let properties) = schema.quotingFields(from: ["One."]).kind else {
            Issue.record("not an object")
            return
        }
        #expect(properties[1].schema.kind == .enumeration(["One."]))
        #expect(properties[0].schema.kind == .string(minLength: nil, maxLength: 80, pattern: nil))
    }
}
