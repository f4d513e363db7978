import Foundation
import Testing
import LocalModel
import TokenBudget
import TestModelSupport

/// The prompt cache with the real default model: a model loaded anew (as a new process loads
/// it) finds the system turn's state its predecessor saved, loads it instead of decoding it,
/// and answers as a cold start does; anything that would make the state stale, or a damaged
/// file, means a normal decode. Asserted through the counts the engine reports, never timing.
@Suite("PromptCache with the real default model", .serialized)
struct PromptCacheTests {
    static let instructions = "You help hikers plan day trips in the mountains. Answer in one short sentence, name the trail, and mention "
        + "the water to carry, the start time that avoids the afternoon heat, and whether dogs are allowed on the path."
    static let question = "Which trail is good for a hot afternoon?"

    /// A folder for the states, removed at the end.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-prompt-states-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }

        /// The saved states, oldest first by name.
        var states: [URL] {
            ((try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? [])
                .filter { $0.pathExtension == "kv" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        }
    }

    /// The default model loaded afresh, as a new process would, with its own contexts.
    func freshModel(_ cache: PromptCache) throws -> LocalModel {
        try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 2, promptCache: cache))
    }

    func answer(_ model: LocalModel, instructions: String = Self.instructions, window: ContextWindow = 2048)
        async throws -> LanguageModelSession.Response<String>
    {
        let session = LanguageModelSession(model: model, instructions: instructions, contextWindow: window)
        return try await session.respond(to: Self.question, options: .init(maximumResponseTokens: 24, toolCallingMode: .disallowed))
    }

    /// The tokens of the system turn the session starts every prompt with.
    func systemTokens(_ model: LocalModel, instructions: String = Self.instructions) throws -> Int {
        try model.tokenizer.tokenize(model.chatTemplate.renderedPrompt([ChatMessage(.system, instructions)], addAssistantPrefix: false)).count
    }

    @Test func aNewModelLoadsTheSavedSystemTurnAndAnswersAsAColdStart() async throws {
        let folder = Folder()
        let cold = try await answer(freshModel(.off))
        let first = try await answer(freshModel(.folder(folder.url)))
        #expect(first.usage.restoredTokens == 0)
        #expect(first.usage.promptStateNotes.isEmpty)
        #expect(folder.states.count == 1)

        let model = try freshModel(.folder(folder.url))
        let second = try await answer(model)
        let system = try systemTokens(model)
        #expect(system > 50)
        #expect(second.usage.restoredTokens == system)
        #expect(second.usage.cachedTokens == system)
        #expect(second.usage.promptStateNotes.isEmpty)
        #expect(first.content == cold.content)
        #expect(second.content == cold.content)
    }

    @Test func aPrewarmedSessionLoadsTheSavedSystemTurn() async throws {
        let folder = Folder()
        let cold = try await answer(freshModel(.off))
        let prewarming = LanguageModelSession(model: try freshModel(.folder(folder.url)), instructions: Self.instructions, contextWindow: 2048)
        try await prewarming.prewarm()
        #expect(folder.states.count == 1, "prewarm decoded the system turn and saved its state")

        let model = try freshModel(.folder(folder.url))
        let session = LanguageModelSession(model: model, instructions: Self.instructions, contextWindow: 2048)
        try await session.prewarm()
        #expect(await session.engineCounters.tokensRestored == (try systemTokens(model)))
        let answer = try await session.respond(to: Self.question, options: .init(maximumResponseTokens: 24, toolCallingMode: .disallowed))
        #expect(answer.content == cold.content)
    }

    @Test func aChangedSystemPromptOrWindowDoesNotLoadTheState() async throws {
        let folder = Folder()
        _ = try await answer(freshModel(.folder(folder.url)))
        let otherPrompt = try await answer(freshModel(.folder(folder.url)), instructions: Self.instructions + " Never mention bears.")
        #expect(otherPrompt.usage.restoredTokens == 0)
        #expect(otherPrompt.usage.cachedTokens == 0)
        let otherWindow = try await answer(freshModel(.folder(folder.url)), window: 1024)
        #expect(otherWindow.usage.restoredTokens == 0)
        #expect(otherWindow.usage.cachedTokens == 0)
        #expect(folder.states.count == 3)
    }

    enum Damage: CaseIterable {
        case truncated, garbage, flippedByte

        func apply(to url: URL) throws {
            let data = try Data(contentsOf: url)
            switch self {
            case .truncated: try data.prefix(data.count / 2).write(to: url)
            case .garbage: try Data((0..<data.count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: url)
            case .flippedByte:
                var flipped = data
                flipped[flipped.count * 3 / 4] ^= 0x10
                try flipped.write(to: url)
            }
        }
    }

    /// Each damage in turn on the one folder (the model's digest, which names the states, is
    /// read once per folder, and that takes seconds in a debug build).
    @Test func aDamagedFileIsANoteAndAColdAnswer() async throws {
        let folder = Folder()
        let cold = try await answer(freshModel(.folder(folder.url)))
        for damage in Damage.allCases {
            let saved = try #require(folder.states.first)
            try damage.apply(to: saved)
            let damaged = try await answer(freshModel(.folder(folder.url)))
            #expect(damaged.usage.restoredTokens == 0, "\(damage)")
            #expect(damaged.usage.cachedTokens == 0, "\(damage)")
            #expect(damaged.content == cold.content, "\(damage)")
            let note = try #require(damaged.usage.promptStateNotes.first, "\(damage)")
            guard case .damagedFile(let path, _) = note else { Issue.record("not a damaged-file note after \(damage): \(note)"); return }
            #expect(path == saved.path)
            // the decode saved a good state again, which the next model loads
            let healed = try await answer(freshModel(.folder(folder.url)))
            #expect(healed.usage.restoredTokens > 0, "\(damage)")
            #expect(healed.content == cold.content, "\(damage)")
        }
    }

    @Test func theFolderKeepsToItsLimitLeastRecentlyUsedOut() async throws {
        let folder = Folder()
        func instructions(_ number: Int) -> String { Self.instructions + " This is trip \(number)." }
        _ = try await answer(freshModel(.folder(folder.url)), instructions: instructions(1))
        let one = try #require(folder.states.first)
        let size = try #require(try one.resourceValues(forKeys: [.fileSizeKey]).fileSize)
        // room for two states of this size, not three
        let cache = PromptCache.folder(folder.url, byteLimit: size * 5 / 2)
        try await Task.sleep(for: .milliseconds(20))
        _ = try await answer(freshModel(cache), instructions: instructions(2))
        let two = try #require(folder.states.first { $0 != one })
        try await Task.sleep(for: .milliseconds(20))
        let reread = try await answer(freshModel(cache), instructions: instructions(1))
        #expect(reread.usage.restoredTokens > 0)
        try await Task.sleep(for: .milliseconds(20))
        _ = try await answer(freshModel(cache), instructions: instructions(3))
        let left = folder.states
        #expect(left.count == 2)
        #expect(left.contains(one), "the state used last before the third was saved")
        #expect(!left.contains(two), "the least recently used state")
    }
}
