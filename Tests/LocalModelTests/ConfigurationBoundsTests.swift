import Foundation
import Testing
import TokenBudget
@testable import LocalModel
import TestModelSupport

/// The library holds the bounds the command line holds (issue 55): threads and parallel
/// sessions outside their range are refused with a typed error when the model is loaded,
/// before llama.cpp sees them (100,000 threads segfaulted in ggml; 2,000,000,000 aborted on
/// std::bad_alloc; a million sessions overflowed the context size).
@Suite struct ConfigurationBoundsTests {
    @Test func theThreadCapIsAMultipleOfTheCoresAndNeverPastGGMLsLimit() {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(LocalModel.Configuration.maximumThreads == min(LocalModel.Configuration.threadsPerCore * cores, 512))
        #expect(LocalModel.Configuration.maximumThreads >= cores)
        #expect(LocalModel.Configuration().threads <= LocalModel.Configuration.maximumThreads)
        #expect(EmbeddingModel.Configuration().threads <= LocalModel.Configuration.maximumThreads)
    }

    @Test(arguments: [0, -3, LocalModel.Configuration.maximumThreads + 1, 100_000, 2_000_000_000, Int.max])
    func threadsOutOfRangeAreRefusedWhenTheModelLoads(threads: Int) throws {
        var configuration = LocalModel.Configuration(threads: 2)
        configuration.threads = threads
        let error = try #require(throws: LocalModelError.self) { try LocalModel(contentsOf: TestModel.url, configuration: configuration) }
        #expect(error == .threadCountOutOfRange(requested: threads, maximum: LocalModel.Configuration.maximumThreads,
                                                cores: ProcessInfo.processInfo.activeProcessorCount))
        #expect(error.description.contains("\(threads) threads"), "\(error)")
        #expect(error.description.contains("1 to \(LocalModel.Configuration.maximumThreads)"), "\(error)")
    }

    @Test func theInitializerDoesNotHideAnOutOfRangeCount() throws {
        let error = try #require(throws: LocalModelError.self) {
            try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 0))
        }
        #expect(error == .threadCountOutOfRange(requested: 0, maximum: LocalModel.Configuration.maximumThreads,
                                                cores: ProcessInfo.processInfo.activeProcessorCount))
    }

    @Test func theCapItselfLoads() throws {
        let model = try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: LocalModel.Configuration.maximumThreads))
        #expect(model.configuration.threads == LocalModel.Configuration.maximumThreads)
    }

    @Test(arguments: [0, LocalModel.Configuration.maximumParallelSessions + 1, 1_000_000])
    func parallelSessionsOutOfRangeAreRefusedWhenTheModelLoads(sessions: Int) throws {
        var configuration = LocalModel.Configuration(threads: 2)
        configuration.parallelSessions = sessions
        let error = try #require(throws: LocalModelError.self) { try LocalModel(contentsOf: TestModel.url, configuration: configuration) }
        #expect(error == .parallelSessionsOutOfRange(requested: sessions, maximum: LocalModel.Configuration.maximumParallelSessions))
    }

    @Test func aWindowOfNoTokensIsRefusedNotTakenAsTheTrainedOne() throws {
        let model = try TestModel.shared()
        let error = try #require(throws: LocalModelError.self) { try model.makeContext(window: ContextWindow(tokens: 0)) }
        #expect(error == .contextWindowOutOfRange(requested: 0, maximum: Int(UInt32.max)))
    }

    @Test(arguments: [-1, Int(UInt32.max) + 1])
    func aWindowLlamaCannotCountIsRefusedNotATrap(tokens: Int) throws {
        let model = try TestModel.shared()
        let error = try #require(throws: LocalModelError.self) {
            try model.makeContext(window: ContextWindow(tokens: tokens), allowBeyondTrainedContext: true)
        }
        #expect(error == .contextWindowOutOfRange(requested: tokens, maximum: Int(UInt32.max)))
    }

    @Test(arguments: [0, 100_000])
    func anEmbeddingModelRefusesTheSameThreads(threads: Int) throws {
        var configuration = EmbeddingModel.Configuration(threads: 2)
        configuration.threads = threads
        let error = try #require(throws: LocalModelError.self) { try EmbeddingModel(contentsOf: EmbeddingTestModel.url, configuration: configuration) }
        #expect(error == .threadCountOutOfRange(requested: threads, maximum: LocalModel.Configuration.maximumThreads,
                                                cores: ProcessInfo.processInfo.activeProcessorCount))
    }
}
