import Foundation
import Testing
@testable import LocalModel
import TestModelSupport

/// Each family's tiny model loads as the family's real model would: its template detected,
/// its markup one token per special token, any text spelled and read back, generation running.
@Suite("Tiny family models")
struct TinyFamilyModelTests {
    /// Each family's tiny model, loaded once, on one thread: nine of ggml's spinning thread
    /// pools side by side on two shared cores slow each other down a hundredfold.
    static let models: [TemplateFamily: Result<LocalModel, any Error>] = {
        var models: [TemplateFamily: Result<LocalModel, any Error>] = [:]
        for family in TemplateFamily.allCases {
            models[family] = Result { try LocalModel(contentsOf: try TinyFamilyModel.url(family), configuration: .init(threads: 1)) }
        }
        return models
    }()

    static func model(_ family: TemplateFamily) throws -> LocalModel { try #require(models[family]).get() }

    @Test(arguments: TemplateFamily.allCases)
    func theModelReadsItsTemplateAsTheFamilysLayout(family: TemplateFamily) throws {
        let model = try Self.model(family)
        #expect(model.info.chatTemplate == (try family.template()))
        #expect(model.info.architecture == family.architecture)
        // Lantern reads Qwen3 from the architecture; the other layouts come from the template
        #expect(model.chatTemplate.name == (family == .qwen3 ? "qwen3" : family.detectedLayout))
    }

    @Test(arguments: TemplateFamily.allCases)
    func everySpecialTokenIsOneTokenOfItsType(family: TemplateFamily) throws {
        let model = try Self.model(family)
        let vocabulary = TinyFamilyModel.vocabulary(family)
        for text in family.controlTokens + family.userDefinedTokens {
            let tokens = model.singleTokens(spelling: text)
            #expect(tokens.map { vocabulary[Int($0)].text } == [text], "\(text)")
            #expect(tokens.allSatisfy { model.handle.isControl($0) } == family.controlTokens.contains(text), "\(text)")
            #expect(model.tokenizer.detokenize(tokens) == text)
        }
        // a user-defined token is one token even in text read without specials; a control one is not
        for text in family.userDefinedTokens {
            #expect(try model.tokenizer.tokenize(text, parseSpecial: false).count == 1, "\(text)")
        }
        for text in family.controlTokens {
            #expect(try model.tokenizer.tokenize(text, parseSpecial: false).count > 1, "\(text)")
        }
    }

    @Test(arguments: TemplateFamily.allCases)
    func theSequenceTokensAreTheFamilys(family: TemplateFamily) throws {
        let model = try Self.model(family)
        let vocabulary = TinyFamilyModel.vocabulary(family)
        func text(_ token: Token?) -> String? { token.map { vocabulary[Int($0)].text } }
        #expect(text(model.info.specialTokens.beginningOfSequence) == family.beginningOfSequence)
        #expect(text(model.info.specialTokens.endOfSequence) == family.endOfSequence)
        #expect(text(model.info.specialTokens.endOfTurn) == family.endOfTurn)
        let bos = try #require(model.info.specialTokens.beginningOfSequence)
        #expect(try model.tokenizer.tokenize("hi", addSpecial: true).first == bos ? family.addsBeginningOfSequence : !family.addsBeginningOfSequence)
    }

    @Test(arguments: TemplateFamily.allCases)
    func anyTextRoundTrips(family: TemplateFamily) throws {
        let model = try Self.model(family)
        for text in ["the trail and the lake", "Ünïcödé ✓ 日本語 🥾", "  two spaces,\ttab\nnew line  ", "{\"name\": \"search\"}", "[INST] <|im_start|> not markup"] {
            let tokens = try model.tokenizer.tokenize(text, parseSpecial: false)
            #expect(model.tokenizer.detokenize(tokens) == text, "\(text)")
        }
        // ordinary pieces are used where they fit, bytes elsewhere
        #expect(try model.tokenizer.tokenize(" the", parseSpecial: false).count == 1)
    }

    @Test(.serialized, arguments: TemplateFamily.allCases)
    func aPlainGenerationRunsToItsLimit(family: TemplateFamily) async throws {
        let model = try Self.model(family)
        let context = try model.makeContext(window: .k4)
        let prompt = model.chatTemplate.render([ChatMessage(.user, "Which trails have water?")])
        let (_, summary) = try await TestModel.collect(context.generate(
            prompt: prompt, parameters: .init(maximumTokens: 48, stopsAtEndOfGeneration: false)))
        #expect(summary?.stopReason == .maximumTokens)
        #expect(summary?.generatedTokens == 48)
    }
}
