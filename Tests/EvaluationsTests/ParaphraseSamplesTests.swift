import Evaluations
import Foundation
import SearchIndex
import Testing

/// The shipped paraphrase samples keep their promise: no content word of a question finds its
/// expected note by full text (the index's own stemming decides, over the real sample corpus),
/// so a hit can only come from a search by meaning.
@Suite struct ParaphraseSamplesTests {
    /// Words every question may share with its note: they carry no content.
    static let functionWords: Set<String> = [
        "a", "about", "after", "an", "and", "at", "because", "did", "for", "from", "get", "had", "her", "his", "i", "in",
        "into", "me", "my", "of", "on", "our", "out", "over", "see", "that", "the", "to", "was", "we", "were", "where",
        "which", "with", "ourselves", "people's",
    ]

    @Test func noContentWordOfAQuestionFindsItsNoteByFullText() async throws {
        let samples = try SampleReader().samples(contentsOf: SampleData.paraphraseSamples)
        #expect(samples.count >= 12)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-paraphrases-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = try SearchableIndex(url: folder.appendingPathComponent("trails.sqlite"))
        try await index.indexSearchableItems(CorpusReader().items(contentsOf: SampleData.trailsCorpus))
        for sample in samples {
            #expect(!sample.expectedIdentifiers.isEmpty, "\(sample.id) expects no item")
            let words = sample.prompt.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init)
            for word in words where !Self.functionWords.contains(word) {
                let found = try await index.search(SearchQuery(.fullText(word, prefix: false), limit: nil))
                let shared = found.map(\.item.uniqueIdentifier).filter(sample.expectedIdentifiers.contains)
                #expect(shared.isEmpty, "\(sample.id): \"\(word)\" finds \(shared) by full text")
            }
        }
    }
}
