import LocalModel
@testable import RemoteModel
import Testing

/// The session's grammars as llama-server takes them, checked with llama.cpp's own grammar
/// engine on the test model's vocabulary.
@Suite struct GrammarTextTests {
    /// Qwen3's answer grammar starts after `</think>` and its whitespace; the server starts a
    /// lazy grammar at its trigger, so the trigger is written into the grammar, and the
    /// session's own `root` (referenced recursively here) is renamed.
    @Test func aGrammarStartedAfterItsTriggerTakesTheTriggerAndWhitespaceFirst() throws {
        let vocabulary = try RemoteTestServer.vocabulary()
        let session = GrammarConstraint(gbnf: #"root ::= "a" | "(" root ")" | "root""#, activation: .lazy(triggers: ["</think>"], grammarIncludesTrigger: false, tokens: []))
        let sent = GrammarText.startingAtTrigger(session, triggers: ["</think>"])
        try vocabulary.validateGrammar(sent)
        for text in ["</think>a", "</think>\n\n(a)", "</think> ((root))"] {
            #expect(try vocabulary.grammar(sent, accepts: text), "\(text)")
        }
        for text in ["a", "</think>b", "</think>\n(a"] {
            #expect(try !vocabulary.grammar(sent, accepts: text), "\(text)")
        }
    }

    @Test func aTriggerWithSpacesFindsAnySpacing() throws {
        #expect(GrammarText.pattern(matching: #"{ "name" : "#) == #"\{\s*"name"\s*:\s*"#)
        let vocabulary = try RemoteTestServer.vocabulary()
        let literal = GrammarText.literal(#"{ "name" : "#)
        for text in [#"{"name":"#, "{\n  \"name\" : "] {
            #expect(try vocabulary.grammar("root ::= \(literal)", accepts: text), "\(text)")
        }
    }

    @Test func aGrammarRootedElsewhereGetsARoot() throws {
        let vocabulary = try RemoteTestServer.vocabulary()
        let sent = GrammarText.rootedAtRoot(GrammarConstraint(gbnf: #"answer ::= "yes" | "no""#, root: "answer"))
        #expect(try vocabulary.grammar(sent, accepts: "yes"))
        #expect(try !vocabulary.grammar(sent, accepts: "maybe"))
    }
}
