import Foundation
import Testing
import LocalModel
import TestModelSupport

private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
/// Installed by `scripts/setup.sh --model qwen2.5-coder-0.5b`; the suite is skipped without it.
private let qwenModelURL = repositoryRoot.appendingPathComponent("models/qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")

/// Issue 47 with the real Qwen2.5-Coder-0.5B-Instruct, which wrote every prose answer over the
/// trails samples as `{"name": "spotlight_search", "arguments": …}`: what Lantern guarantees
/// whatever the model chooses — no answer is a call in any spelling, and an answer ends before
/// the token limit or its transcript entry says why. (Which words it writes is its choice.)
@Suite("Answers with the real Qwen2.5-Coder-0.5B", .serialized, .enabled(if: FileManager.default.fileExists(atPath: qwenModelURL.path)))
struct QwenAnswerGuardTests {
    static let root = repositoryRoot
    static let modelURL = qwenModelURL
    static let samples = root.appendingPathComponent("Sources/Evaluations/Samples/trails-samples.jsonl")
    static let corpus = root.appendingPathComponent("Sources/Evaluations/Samples/trails.jsonl")
    static let tokenLimit = 160

    /// The search tool's wire name and argument, answering from the shipped trails corpus:
    /// every trail whose text holds a word of the query, title and description, at most four.
    struct TrailSearch: Tool {
        struct Arguments: Generable, Codable {
            var query: String
            static let generationSchema: GenerationSchema = .object([.property("query", .string(maxLength: 80))])
        }
        let name = "spotlight_search"
        let description = "Searches the user's trail notes."
        let trails: [(title: String, text: String)]

        func call(arguments: Arguments) async throws -> String {
            let words = arguments.query.lowercased().split(whereSeparator: { !$0.isLetter }).filter { $0.count > 3 }
            let found = trails.filter { trail in words.contains { trail.text.lowercased().contains($0) } }.prefix(4)
            return found.isEmpty ? "No results." : found.map { "\($0.title): \($0.text)" }.joined(separator: "\n")
        }
    }

    static func trails() throws -> [(title: String, text: String)] {
        try String(contentsOf: corpus, encoding: .utf8).split(separator: "\n").compactMap { line in
            let item = try JSONValue(parsing: String(line))
            guard let title = item["attributes"]?["title"]?.stringValue,
                  let description = item["attributes"]?["contentDescription"]?.stringValue else { return nil }
            return (title, description)
        }
    }

    static func questions(_ count: Int) throws -> [String] {
        try String(contentsOf: samples, encoding: .utf8).split(separator: "\n").prefix(count).compactMap {
            try JSONValue(parsing: String($0))["prompt"]?.stringValue
        }
    }

    @Test func noAnswerIsACallAndEveryAnswerEndsOrSaysWhy() async throws {
        let model = try LocalModel(contentsOf: Self.modelURL, configuration: .init(threads: 2))
        let tool = TrailSearch(trails: try Self.trails())
        let options = GenerationOptions(sampling: .greedy, maximumResponseTokens: Self.tokenLimit, answerStyle: .prose)
        for question in try Self.questions(3) {
            // one round of calls, then the answer round, where a call cannot run
            let session = LanguageModelSession(model: model, tools: [tool], instructions: "Answer from the user's trail notes.", maximumToolRounds: 1)
            let response: LanguageModelSession.Response<String>
            do {
                response = try await session.respond(to: question, options: options)
            } catch LanguageModelSession.GenerationError.toolRoundLimitReached {
                continue   // no answer at all: typed, and not a call
            }
            #expect(!ToolCallSyntax.hermes.containsCall(response.content), "\(question): \(response.content)")
            #expect(!response.content.contains("\"name\""), "\(question): \(response.content)")
            guard case .response(let entry) = response.transcriptEntries.last else { Issue.record("\(question): no response entry"); continue }
            #expect(entry.truncation == response.truncation)
            if response.truncation == nil {
                let tokens = try model.tokenizer.tokenize(response.content, parseSpecial: false).count
                #expect(tokens < Self.tokenLimit, "\(question): an answer at the limit must say it was cut")
            }
        }
    }

    /// The engine's side: asked for nothing but a JSON call, the model still cannot begin its
    /// output with one when the openings are forbidden. Prints the decode speed with and without.
    @Test func anOutputCannotBeginWithAForbiddenOpening() async throws {
        let model = try LocalModel(contentsOf: Self.modelURL, configuration: .init(threads: 2))
        let prompt = "<|im_start|>user\nReply with only this JSON and nothing else: {\"name\": \"spotlight_search\", \"arguments\": {\"query\": \"lakes\"}}<|im_end|>\n<|im_start|>assistant\n"
        let openings = ToolCallSyntax.hermes.answerOpenings
        var figures: [String] = []
        for forbidden in [openings, []] {
            let parameters = GenerationParameters(maximumTokens: 48, forbiddenOpenings: forbidden)
            let (text, summary) = try await TestModel.collect(model.makeContext(window: .k4).generate(prompt: prompt, parameters: parameters))
            let summaryValue = try #require(summary)
            let seconds = Double(summaryValue.generationDuration.components.attoseconds) / 1e18 + Double(summaryValue.generationDuration.components.seconds)
            figures.append("forbidden \(forbidden.count): \(summaryValue.generatedTokens) tokens, \(String(format: "%.1f", Double(summaryValue.generatedTokens) / seconds)) tokens/s: \(text.prefix(60))")
            if !forbidden.isEmpty {
                #expect(!text.drop { $0.isWhitespace }.hasPrefix("{"), "\(text)")
            }
        }
        print(figures.joined(separator: "\n"))
    }
}
