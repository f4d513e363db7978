import Foundation
import Testing
@testable import LocalModel
import TestModelSupport

/// Plain greedy sampling picks its token straight from the logits, without llama.cpp's candidate
/// list; it must choose exactly what llama.cpp's greedy sampler chooses, or greedy output would
/// change. The reference is a chain llama.cpp runs itself: a repetition penalty that has seen no
/// token yet (so changes nothing) in front of the same greedy sampler.
@Suite("Greedy sampling without the candidate list", .serialized)
struct GreedySamplingTests {
    let model: LocalModel

    init() throws {
        model = try TestModel.shared()
    }

    /// Logits shaped to catch a different rule: ties at the top, NaN and -inf in front or among
    /// them, all equal, and random ones.
    func logitSets() -> [[Float]] {
        let size = model.handle.vocabularySize
        var generator = SystemRandomNumberGenerator()
        func random() -> [Float] { (0..<size).map { _ in Float.random(in: -20...20, using: &generator) } }
        var tiedAtTop = random()
        for index in [17, 4_000, size - 1] { tiedAtTop[index] = 99 }
        var nanFirst = random()
        nanFirst[0] = .nan
        var nanAmongTop = tiedAtTop
        nanAmongTop[10] = .nan
        var minusInfinityFirst = random()
        minusInfinityFirst[0] = -.infinity
        return [random(), random(), tiedAtTop, nanFirst, nanAmongTop, minusInfinityFirst,
                [Float](repeating: 0, count: size), [Float](repeating: .nan, count: size)]
    }

    @Test func choosesWhatLlamaCppsGreedySamplerChooses() throws {
        let fast = try LlamaSampler(model: model.handle, options: .greedy, grammar: nil)
        let reference = try LlamaSampler(model: model.handle, options: SamplingOptions(repetitionPenalty: 1.5), grammar: nil)
        for (number, logits) in logitSets().enumerated() {
            #expect(try fast.sample(from: logits) == reference.sample(from: logits), "logit set \(number)")
        }
    }

    @Test func theFirstOfTiedTopLogitsWins() {
        var logits = [Float](repeating: 1, count: 8)
        logits[3] = 5
        logits[6] = 5
        #expect(LlamaSampler.firstHighest(logits) == 3)
    }
}
