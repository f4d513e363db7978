import Foundation
import LocalModel
import SearchTool
import Testing

/// `ModelTextEmbedder(contentsOf:threads:)` passes the count it is given to the embedding model,
/// which refuses one outside 1...`LocalModel.Configuration.maximumThreads` with a typed error
/// (`eval --threads` reaches it), rather than raising 0 to 1 or handing 100,000 to ggml.
@Suite struct ModelTextEmbedderThreadsTests {
    @Test(arguments: [0, 100_000])
    func threadsOutOfRangeAreATypedError(threads: Int) throws {
        let error = try #require(throws: LocalModelError.self) { try ModelTextEmbedder(contentsOf: ModelTextEmbedderTests.url, threads: threads) }
        #expect(error == .threadCountOutOfRange(requested: threads, maximum: LocalModel.Configuration.maximumThreads,
                                                cores: ProcessInfo.processInfo.activeProcessorCount))
    }
}
