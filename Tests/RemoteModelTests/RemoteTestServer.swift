import Foundation
import LocalModel
import RemoteModel
import SearchIndex
import SearchTool
import TestModelSupport

/// The servers and the index the remote model's tests share: one llama-server on the test
/// model for every test that needs a plain one (with `--metrics`, so a test can see whether a
/// request was decoded), started on first use and ended with the test process.
enum RemoteTestServer {
    /// The window the server runs with: the search tool's focused guide and a short question fit.
    static let context = 4096

    private static let plain = Task { try await LlamaServerProcess(model: TestModel.url, context: context, threads: 2, arguments: ["--metrics"]) }

    /// The shared server.
    static func shared() async throws -> LlamaServerProcess { try await plain.value }

    /// The test model's vocabulary, loaded without weights: what the exact configuration gives.
    static func vocabulary() throws -> LocalModel { try LocalModel.vocabularyOnly(contentsOf: TestModel.url) }

    /// llama-server's running total of prompt tokens decoded (`llamacpp:prompt_tokens_total`).
    static func promptTokensDecoded(_ server: LlamaServerProcess) async throws -> Double {
        try await metric("llamacpp:prompt_tokens_total", of: server)
    }

    /// llama-server's running total of tokens generated (`llamacpp:tokens_predicted_total`).
    static func tokensGenerated(_ server: LlamaServerProcess) async throws -> Double {
        try await metric("llamacpp:tokens_predicted_total", of: server)
    }

    /// One counter of the server's /metrics (it runs with `--metrics`).
    private static func metric(_ name: String, of server: LlamaServerProcess) async throws -> Double {
        let (_, body) = try await HTTPClient.send(.get(server.url.appendingPathComponent("metrics")), timeout: .seconds(30))
        let line = String(decoding: body, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(name + " ") }
        guard let value = line?.split(separator: " ").last.flatMap({ Double($0) }) else {
            throw LlamaServerProcessError(reason: "no \(name) in /metrics")
        }
        return value
    }

    /// Returns once no slot of the server is processing a request (its /slots); a guard of a
    /// minute keeps a server that never stops from hanging the test.
    static func waitUntilIdle(_ server: LlamaServerProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let (_, body) = try await HTTPClient.send(.get(server.url.appendingPathComponent("slots")), timeout: .seconds(30))
            let slots = try JSONValue(parsing: String(decoding: body, as: UTF8.self)).arrayValue ?? []
            if !slots.isEmpty, slots.allSatisfy({ $0["is_processing"]?.boolValue == false }) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw LlamaServerProcessError(reason: "llama-server still processing a request a minute later", log: server.logTail)
    }

    /// A small index of notes in a fresh temporary folder, and the setup `ask` would make of it.
    static func notes() async throws -> SearchSetup {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let index = try SearchableIndex(url: folder.appendingPathComponent("notes.sqlite"))
        let notes = [
            ("note-1", "Tent repair", "The tent's zipper broke at the lake; I fixed it with a paperclip."),
            ("note-2", "Lake trip", "We camped at Lost Lake for three nights and swam every morning."),
            ("note-3", "Garden", "The tomatoes ripened in August; the basil bolted early."),
            ("note-4", "Stove", "The camping stove needs a new gas canister before the next trip."),
        ]
        try await index.indexSearchableItems(notes.map { id, title, text in
            var set = SearchableItemAttributeSet(contentType: "public.text")
            set.title = title
            set.textContent = text
            return SearchableItem(uniqueIdentifier: id, domainIdentifier: "notes", attributeSet: set)
        })
        return try await SearchSetup(index: index)
    }
}
