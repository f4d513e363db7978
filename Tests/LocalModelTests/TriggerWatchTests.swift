import Testing
@testable import LocalModel

/// The engine's watch for a lazy grammar's triggers, fed token texts as a model writes them:
/// a trigger's whitespace stands for any, so a call object the model indents starts the
/// grammar (Qwen2.5-Coder-1.5B's indented `{\n  "name": …}` ran unconstrained, and its
/// arguments broke the schema), and the tokens handed over start where the trigger does.
@Suite struct TriggerWatchTests {
    /// Feeds `pieces` as tokens 1, 2, …; the first completed trigger's tokens and text.
    func firstTrigger(_ triggers: [String], _ pieces: [String]) -> (tokens: [Token], text: String)? {
        var watch = TriggerWatch(triggers: triggers, tokens: [])
        for (index, piece) in pieces.enumerated() {
            if let found = watch.record(Token(index + 1), bytes: Array(piece.utf8)) {
                return (found.tokens, String(decoding: found.text, as: UTF8.self))
            }
        }
        return nil
    }

    @Test func anIndentedCallObjectCompletesTheSpacedTrigger() throws {
        let pieces = ["You can use", " the following query:\n\n", "```json", "\n{\n", "  \"", "name", "\":", " \"spotlight"]
        let found = try #require(firstTrigger(["<tool_call>", "{ \"name\" : "], pieces))
        #expect(found.tokens == [4, 5, 6, 7])
        #expect(found.text == "{\n  \"name\":")
    }

    @Test func triggersWithoutWhitespaceStayExact() {
        #expect(firstTrigger(["<tool_call>"], ["<tool", "_ call>", " <tool_", "call>"])?.tokens == [3, 4])
        #expect(firstTrigger(["{ \"name\" : "], ["{\"na", "me\" is", " not a key"]) == nil)
        #expect(firstTrigger(["{ \"name\" : "], ["{\"name\"", " ", ":"])?.text == "{\"name\" :")
    }

    @Test func theEarliestTriggerWins() throws {
        // the text runs to the end of the token that completes the trigger
        let found = try #require(firstTrigger(["[", "{ \"name\" : "], ["{ \"name\"", ": [", "1"]))
        #expect(found.text == "{ \"name\": [")
    }
}
