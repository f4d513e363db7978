import Foundation
import Testing
import LocalModel
import TokenBudget
import TestModelSupport

@Suite("Generating text with the real default model", .serialized)
struct GenerationTests {
    let template = ChatTemplate(family: .chatml)

    func prompt(_ question: String, system: String = "You are a helpful assistant.") -> String {
        template.render([ChatMessage(.system, system), ChatMessage(.user, question)])
    }

    /// A grammar that admits exactly `text`. What the model writes under it is the text, on
    /// any CPU: the tests of stops and limits need text of a known length, and what a model
    /// writes freely depends on the kernels ggml picked (it may also stop early).
    /// (`text` holds no quote or backslash, so it is its own GBNF literal.)
    func exactly(_ text: String) -> GrammarConstraint {
        precondition(!text.contains("\"") && !text.contains("\\"))
        return GrammarConstraint(gbnf: "root ::= \"" + text + "\"")
    }

    @Test func tokenizeRoundTrips() throws {
        let tokenizer = try TestModel.shared().tokenizer
        for text in ["Hello, world!", "Ünïcödé — naïve café 🙂 日本語", "  spaces\tand\nnewlines  ", ""] {
            let tokens = try tokenizer.tokenize(text, parseSpecial: false)
            #expect(tokenizer.detokenize(tokens) == text)
        }
        // control-token markup is one token when parsed, several when not
        let special = try tokenizer.tokenize("<|im_start|>", parseSpecial: true)
        let plain = try tokenizer.tokenize("<|im_start|>", parseSpecial: false)
        #expect(special.count == 1)
        #expect(plain.count > 1)
    }

    @Test func greedyGenerationIsDeterministic() async throws {
        let model = try TestModel.shared()
        let parameters = GenerationParameters(maximumTokens: 40)
        let (first, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(prompt: prompt("Name three colours."), parameters: parameters))
        let (second, secondSummary) = try await TestModel.collect(model.makeContext(window: .k4).generate(prompt: prompt("Name three colours."), parameters: parameters))
        // what the text is, and how long, is the model's; that a second run repeats it is the engine's
        #expect(first == second)
        #expect(summary?.generatedTokens ?? 0 > 0)
        #expect(summary?.generatedTokens == secondSummary?.generatedTokens)
        #expect(summary?.stopReason == secondSummary?.stopReason)
    }

    @Test func stopStringsEndGenerationBeforeTheStop() async throws {
        let model = try TestModel.shared()
        let question = prompt("Write a short paragraph about mountains.")
        // the grammar fixes the text, not its tokens: the stop may fall inside one
        let paragraph = "Mountains rise above the valley, and snow covers their peaks all year."
        let (full, _) = try await TestModel.collect(model.makeContext(window: .k4).generate(
            prompt: question, parameters: .init(maximumTokens: 60, grammar: exactly(paragraph))))
        #expect(full == paragraph)
        for stop in ["snow", "ley, a", "."] {
            let expected = String(paragraph[..<paragraph.range(of: stop)!.lowerBound])
            let (cut, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(
                prompt: question, parameters: .init(maximumTokens: 60, stopStrings: [stop], grammar: exactly(paragraph))))
            #expect(cut == expected)
            #expect(summary?.stopReason == .stopString(stop))
        }
    }

    @Test func aRepeatedSpanEndsGenerationRightAfterIt() async throws {
        let model = try TestModel.shared()
        // the grammar dictates the text; the stop must cut it after the first repeat
        let forced = GrammarConstraint(gbnf: #"root ::= "[a]" "[b]" "[a]" "[c]""#)
        let (text, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(
            prompt: prompt("Write letters."),
            parameters: .init(maximumTokens: 40, grammar: forced, repeatedSpanStop: RepeatedSpanStop(open: "[", close: "]"))))
        #expect(text == "[a][b][a]")
        #expect(summary?.stopReason == .repeatedSpan)

        // a span seen before this generation counts as a repeat at its first appearance
        let (early, _) = try await TestModel.collect(model.makeContext(window: .k4).generate(
            prompt: prompt("Write letters."),
            parameters: .init(maximumTokens: 40, grammar: forced, repeatedSpanStop: RepeatedSpanStop(open: "[", close: "]", earlierSpans: ["b"]))))
        #expect(early == "[a][b]")
    }

    @Test func endOfTurnStopsGeneration() async throws {
        let model = try TestModel.shared()
        // once the grammar is complete only an end-of-generation token may follow: the model
        // must end its turn there, and the engine must stop on it without showing it
        let (text, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(
            prompt: prompt("Say hello."), parameters: .init(maximumTokens: 200, grammar: exactly("Hello there!"))))
        #expect(summary?.stopReason == .endOfGeneration)
        #expect(text == "Hello there!")
        #expect(!text.contains("<|im_end|>"))
    }

    @Test func maximumTokensIsRespected() async throws {
        let model = try TestModel.shared()
        // seven tokens of this vocabulary cannot spell 13 words (none spans a space between words)
        let story = "Once upon a time a small dragon lived alone in a cold cave."
        let (text, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(
            prompt: prompt("Write a long story about a dragon."), parameters: .init(maximumTokens: 7, grammar: exactly(story))))
        #expect(summary?.generatedTokens == 7)
        #expect(summary?.stopReason == .maximumTokens)
        #expect(story.hasPrefix(text) && text.count < story.count, "\(text)")
    }

    @Test func cancellingTheConsumerStopsDecoding() async throws {
        let model = try TestModel.shared()
        let context = try model.makeContext(window: .k4)
        // 400 words the grammar holds the model to, so it cannot end before the cancel
        let story = exactly(Array(repeating: "The waves rolled on.", count: 100).joined(separator: " "))
        let consumer = Task { () -> (Int, (any Error)?) in
            var pieces = 0
            do {
                for try await event in context.generate(prompt: prompt("Write a very long story about the sea."),
                                                        parameters: .init(maximumTokens: 2000, grammar: story)) {
                    if case .text = event { pieces += 1 }
                    if pieces == 5 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (pieces, nil)
            } catch {
                return (pieces, error)
            }
        }
        let (pieces, error) = await consumer.value
        #expect(error as? LocalModelError == .cancelled || error is CancellationError || error == nil)
        let generated = await context.counters.tokensGenerated
        #expect(pieces >= 5)
        // the producer stops at its next token boundary: far fewer than the 2,000 allowed
        #expect(generated < 100)
    }

    @Test func secondRequestReusesTheSharedPrefix() async throws {
        let model = try TestModel.shared()
        let context = try model.makeContext(window: .k4)
        let system = String(repeating: "You answer questions about hiking trails, briefly and accurately. ", count: 8)
        let first = prompt("Which trail is the longest?", system: system)
        let second = prompt("Which trail has a waterfall?", system: system)
        let (_, firstSummary) = try await TestModel.collect(context.generate(prompt: first, parameters: .init(maximumTokens: 4)))
        let decodedAfterFirst = await context.counters.tokensDecoded
        let (_, secondSummary) = try await TestModel.collect(context.generate(prompt: second, parameters: .init(maximumTokens: 4)))
        let counters = await context.counters

        let tokenizer = model.tokenizer
        let firstTokens = try tokenizer.tokenize(first, addSpecial: true)
        let secondTokens = try tokenizer.tokenize(second, addSpecial: true)
        let shared = zip(firstTokens, secondTokens).prefix { $0 == $1 }.count
        #expect(firstSummary?.reusedTokens == 0)
        #expect(secondSummary?.reusedTokens == shared)
        #expect(shared > secondTokens.count / 2)
        // only the new suffix of the second prompt was decoded, plus each generated token but the
        // last (the one generation stopped at, end of generation or the limit: never fed back)
        let summary = try #require(secondSummary)
        #expect(counters.tokensDecoded - decodedAfterFirst == secondTokens.count - shared + summary.generatedTokens - 1)
    }

    @Test func decodeTimeIsPartOfTheGenerationsTime() async throws {
        let context = try TestModel.shared().makeContext(window: .k4)
        let (_, summary) = try await TestModel.collect(context.generate(prompt: prompt("Name a colour."), parameters: .init(maximumTokens: 8)))
        let generation = try #require(summary)
        let decoding = await context.counters.decodeDuration
        // every decode ran inside the prompt's or the generation's time, and took some
        #expect(decoding > .zero)
        #expect(decoding <= generation.prefillDuration + generation.generationDuration)
        // a context that decoded nothing has spent nothing in llama_decode
        let idle = try TestModel.shared().makeContext(window: .k4)
        #expect(await idle.counters.decodeDuration == .zero)
    }

    @Test func prefillWarmsTheCacheForTheNextPrompt() async throws {
        let model = try TestModel.shared()
        let context = try model.makeContext(window: .k4)
        let system = template.render([ChatMessage(.system, "You are terse.")], addAssistantPrefix: false)
        _ = try await context.prefill(prompt: system) as Int
        let systemTokens = try model.tokenizer.tokenize(system, addSpecial: true).count
        let (_, summary) = try await TestModel.collect(context.generate(
            prompt: prompt("Hi", system: "You are terse."), parameters: .init(maximumTokens: 2)))
        #expect(summary?.reusedTokens == systemTokens)
    }

    @Test func promptLongerThanTheWindowIsRefused() async throws {
        let model = try TestModel.shared()
        let context = try model.makeContext(window: 256)
        let long = prompt(String(repeating: "word ", count: 2 * context.size))
        await #expect(throws: LocalModelError.promptTooLong(promptTokens: try model.tokenizer.tokenize(long, addSpecial: true).count, window: context.size)) {
            _ = try await TestModel.collect(context.generate(prompt: long))
        }
        #expect(await context.counters.tokensDecoded == 0)
    }

    @Test func chatMLMatchesLlamaCppsTemplateByteForByte() throws {
        let model = try TestModel.shared()
        let conversation = [
            ChatMessage(.system, "You are a helpful assistant.\n\nWith two paragraphs."),
            ChatMessage(.user, "What is the capital of France?"),
            ChatMessage(.assistant, "Paris."),
            ChatMessage(.user, "And of Italy? Ünïcode 🙂"),
        ]
        for addAssistant in [true, false] {
            let ours = template.render(conversation, addAssistantPrefix: addAssistant)
            let reference = try #require(model.referenceChatRendering(conversation, addAssistantPrefix: addAssistant))
            #expect(ours == reference)
        }
        // tool results travel as a user turn with <tool_response> blocks (Qwen's layout)
        let withTools = conversation + [ChatMessage(.tool, "{\"count\": 3}"), ChatMessage(.tool, "done")]
        let wrapped = conversation + [ChatMessage(.user, "<tool_response>\n{\"count\": 3}\n</tool_response>\n<tool_response>\ndone\n</tool_response>")]
        #expect(template.render(withTools) == model.referenceChatRendering(wrapped))
    }

    @Test func grammarConstrainsEveryToken() async throws {
        let model = try TestModel.shared()
        let gbnf = #"root ::= "{\"answer\": " ("\"yes\"" | "\"no\"") "}""#
        try model.validateGrammar(gbnf)
        let (text, _) = try await TestModel.collect(model.makeContext(window: .k4).generate(
            prompt: prompt("Is the sky blue?"), parameters: .init(maximumTokens: 30, grammar: GrammarConstraint(gbnf: gbnf))))
        #expect(text == #"{"answer": "yes"}"# || text == #"{"answer": "no"}"#)
    }

    @Test func lazyGrammarLeavesTextFreeUntilTheTrigger() async throws {
        let model = try TestModel.shared()
        let gbnf = #"root ::= "<tool_call>" [0-9] [0-9] "</tool_call>""#
        let grammar = GrammarConstraint.lazy(gbnf: gbnf, trigger: "<tool_call>")
        // the model is asked to produce the trigger; once it does, only two digits may follow
        let question = prompt("Reply with exactly: <tool_call>", system: "You repeat what you are asked to reply, verbatim.")
        let (text, _) = try await TestModel.collect(model.makeContext(window: .k4).generate(
            prompt: question, parameters: .init(maximumTokens: 40, grammar: grammar)))
        if let range = text.range(of: "<tool_call>") {
            let after = text[range.upperBound...]
            #expect(after.prefix(2).allSatisfy { $0.isNumber })
        }
        #expect(try model.grammar(gbnf, accepts: "<tool_call>42</tool_call>"))
        #expect(try !model.grammar(gbnf, accepts: "<tool_call>4x</tool_call>"))
    }

    @Test func aTokenThatRunsPastTheTriggerIntoRejectedTextIsNotSampled() async throws {
        let model = try TestModel.shared()
        // "th" completes inside tokens such as " the", whose "e" the grammar rejects (fed to
        // llama.cpp's grammar, such text threw and aborted the process): those are passed over,
        // so wherever "th" appears, the grammar's "x" follows or the text ends
        let grammar = GrammarConstraint.lazy(gbnf: #"root ::= "thx""#, trigger: "th")
        let (text, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(
            prompt: prompt("Describe the weather in the mountains in three sentences."), parameters: .init(maximumTokens: 40, grammar: grammar)))
        // the stream ended normally (before the fix, the process aborted); how far the model got
        // before "th", and whether it wrote one at all, is its choice
        let stop = try #require(summary, "the stream ended without a summary").stopReason
        #expect(stop == .maximumTokens || stop == .endOfGeneration, "\(stop)")
        let pieces = text.components(separatedBy: "th")
        #expect(pieces.count <= 2, "\(text)")
        if pieces.count == 2 { #expect(pieces[1].isEmpty || pieces[1].hasPrefix("x"), "\(text)") }
    }

    @Test func invalidGrammarIsATypedError() throws {
        let model = try TestModel.shared()
        #expect {
            try model.validateGrammar("root ::= ( unclosed")
        } throws: { error in
            if case .invalidGrammar = error as? LocalModelError { return true }
            return false
        }
    }
}
