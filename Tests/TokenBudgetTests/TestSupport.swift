import TokenBudget

/// Counts whitespace-separated words, so tests can compute expected counts independently.
/// Special markup (`<|im_start|>`) costs 1 token when parsed as special, 3 when left as text,
/// so a test can tell which way a text was counted.
struct WordCounter: TokenCounter {
    func countTokens(in text: String, parseSpecial: Bool) throws -> Int {
        text.split(whereSeparator: \.isWhitespace).reduce(0) { count, word in
            count + (!parseSpecial && word.hasPrefix("<|") && word.hasSuffix("|>") ? 3 : 1)
        }
    }
}

/// One token per character: strictly growing with the text, for checks on truncation length.
struct CharacterCounter: TokenCounter {
    func countTokens(in text: String, parseSpecial: Bool) throws -> Int { text.count }
}

/// A broken counter, to check that reports refuse negative counts.
struct NegativeCounter: TokenCounter {
    func countTokens(in text: String, parseSpecial: Bool) throws -> Int { -1 }
}

/// `count` distinct words tagged with `tag`: "tag1 tag2 …".
func words(_ count: Int, _ tag: String) -> String {
    (0..<count).map { "\(tag)\($0 + 1)" }.joined(separator: " ")
}

/// Word counts of the fixture's parts, written out so tests compare against numbers they chose.
enum Fixture {
    static let instructions = 50, searchDescription = 20, searchSchema = 100, fetchDescription = 10,
        fetchSchema = 15, overhead = 12, prompt = 7, reserve = 64
    static let turnPrompt = 5, toolCalls = 8, toolOutput = 200, response = 30
    static var fixed: Int {
        instructions + searchDescription + searchSchema + fetchDescription + fetchSchema + overhead + prompt + reserve
    }
    static var turn: Int { turnPrompt + toolCalls + toolOutput + response }

    /// Instructions, two tools, `turns` full turns (prompt, tool calls, tool output, response),
    /// a new prompt and an answer reserve.
    static func request(turns: Int = 3) -> BudgetRequest {
        BudgetRequest(
            instructions: words(instructions, "rule"),
            tools: [
                .init(name: "spotlight_search", description: words(searchDescription, "searches"),
                      schema: words(searchSchema, "field")),
                .init(name: "fetch", description: words(fetchDescription, "fetches"),
                      schema: words(fetchSchema, "id")),
            ],
            templateOverhead: .tokens(overhead),
            transcript: (1..<turns + 1).flatMap { turn in
                [
                    BudgetRequest.Entry(id: "p\(turn)", kind: .prompt, text: words(turnPrompt, "ask\(turn)-")),
                    BudgetRequest.Entry(id: "c\(turn)", kind: .toolCalls, text: words(toolCalls, "call\(turn)-")),
                    BudgetRequest.Entry(id: "o\(turn)", kind: .toolOutput, text: words(toolOutput, "hit\(turn)-")),
                    BudgetRequest.Entry(id: "r\(turn)", kind: .response, text: words(response, "say\(turn)-")),
                ]
            },
            prompt: words(prompt, "question"),
            reservedAnswerTokens: reserve)
    }
}
