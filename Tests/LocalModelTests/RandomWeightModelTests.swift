import Foundation
import Testing
import LocalModel
import TokenBudget
import TestModelSupport

/// A GGUF whose header is real (the default model's metadata, vocabulary and tensor table) and
/// whose weights are random bytes: its logits are garbage or NaN. Grammar-constrained generation
/// on it must end — with text the grammar accepts or a typed error — and never hand llama.cpp's
/// grammar a token it rejects (llama.cpp aborts the process then: `llama-grammar.cpp: fatal error`).
@Suite("A model with random weights under a grammar", .serialized)
struct RandomWeightModelTests {
    enum Weights: String, CaseIterable, Sendable {
        /// Every byte of tensor data random: the scales are random half floats, some NaN or
        /// infinite, so every logit is NaN.
        case randomBytes
        /// Random quantized values under small finite scales: finite garbage logits.
        case finiteNoise
    }

    /// The default model's file with its tensor data replaced by seeded random `weights`.
    static func randomWeightModel(_ weights: Weights, seed: UInt64) throws -> URL {
        let header = try GGUFFile(contentsOf: TestModel.url)
        var data = try Data(contentsOf: TestModel.url)
        let table = try GGUFTensorTable(data)
        var generator = SplitMix64(seed: seed)
        let start = Int(header.dataOffset)
        data.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) in
            var offset = start
            while offset + 8 <= bytes.count {
                bytes.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            guard weights == .finiteNoise else { return }
            func half(_ value: Float, at offset: Int) { bytes.storeBytes(of: Float16(value).bitPattern.littleEndian, toByteOffset: offset, as: UInt16.self) }
            for tensor in table.entries {
                let base = start + tensor.offset
                let elements = tensor.dimensions.reduce(1) { $0 * Int($1) }
                switch tensor.type {
                case 0:  // F32: norms near 1
                    for index in 0..<elements {
                        let value = 0.5 + Float(generator.next() % 1000) / 1000
                        bytes.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: base + index * 4, as: UInt32.self)
                    }
                case 3:  // Q4_1: blocks of 32 values, f16 scale and minimum, 16 bytes of nibbles
                    for block in 0..<(elements / 32) {
                        half(Float(generator.next() % 1000) / 50_000, at: base + block * 20)
                        half(-Float(generator.next() % 1000) / 100_000, at: base + block * 20 + 2)
                    }
                case 8:  // Q8_0: blocks of 32 values, f16 scale, 32 signed bytes
                    for block in 0..<(elements / 32) {
                        half(Float(generator.next() % 1000) / 500_000, at: base + block * 34)
                    }
                default:
                    break
                }
            }
        }
        let file = try TestModel.temporaryDirectory().appendingPathComponent("\(weights.rawValue)-\(seed).gguf")
        try data.write(to: file)
        return file
    }

    /// A model of each kind of random weights, made and loaded once.
    static let models: [Weights: Result<LocalModel, LocalModelError>] = {
        var models: [Weights: Result<LocalModel, LocalModelError>] = [:]
        for weights in Weights.allCases {
            models[weights] = Result { () throws(LocalModelError) -> LocalModel in
                guard let url = try? randomWeightModel(weights, seed: 1) else {
                    throw .unreadable(path: "\(weights.rawValue).gguf", reason: "the test could not write it")
                }
                defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
                return try LocalModel(contentsOf: url, configuration: .init(threads: 2))
            }
        }
        return models
    }()

    static let samplings: [SamplingOptions] = [.greedy, .random(temperature: 0.8, topK: 40, topP: 0.95, minP: nil, seed: 7)]

    /// A JSON object with one short string: what a tool call or a guided answer looks like.
    static let grammar = GrammarConstraint(gbnf: #"""
        root ::= "{\"name\": \"" [a-z]{1,8} "\"}"
        """#)

    @Test(arguments: Weights.allCases, samplings)
    func grammarConstrainedGenerationEndsWithoutCrashing(weights: Weights, sampling: SamplingOptions) async throws {
        let model = try #require(try Self.models[weights]?.get())
        let context = try model.makeContext(window: .k4)
        let prompt = "<|im_start|>user\nName a trail.<|im_end|>\n<|im_start|>assistant\n"
        do {
            let (text, summary) = try await TestModel.collect(context.generate(
                prompt: prompt, parameters: .init(sampling: sampling, maximumTokens: 40, grammar: Self.grammar)))
            // finite scores: the grammar's whole value, every token of it allowed, then the end
            #expect(weights == .finiteNoise, "NaN scores produced text: \(text)")
            #expect(summary?.stopReason == .endOfGeneration, "\(text)")
            #expect(try model.grammar(Self.grammar.gbnf, accepts: text), "\(text)")
        } catch let error as LocalModelError {
            // NaN scores: no token can be chosen, and generation says so
            guard case .noTokenAllowed(let reason) = error else { Issue.record("unexpected error \(error)"); return }
            #expect(weights == .randomBytes, "\(error)")
            #expect(reason.contains("NaN"), "\(reason)")
        }
    }
}

/// A small, fast, seeded generator (SplitMix64), so a failing seed can be rerun.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
