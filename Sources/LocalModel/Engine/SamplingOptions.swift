/// How the next token is chosen.
///
/// Greedy decoding is deterministic and is what tool calls and tests use; random sampling
/// takes the usual knobs and a seed so a run can be repeated exactly.
public struct SamplingOptions: Sendable, Hashable {
    public enum Mode: Sendable, Hashable {
        /// Always the most likely token.
        case greedy
        /// Sample from the filtered distribution. nil filters are off.
        case random(topK: Int?, topP: Float?, minP: Float?, temperature: Float, seed: UInt32)
    }

    public var mode: Mode
    /// Penalty for repeating a token seen in the last `repetitionWindow` tokens (1 = off).
    public var repetitionPenalty: Float
    public var repetitionWindow: Int

    public init(mode: Mode = .greedy, repetitionPenalty: Float = 1, repetitionWindow: Int = 64) {
        self.mode = mode
        self.repetitionPenalty = repetitionPenalty
        self.repetitionWindow = repetitionWindow
    }

    /// The most likely token every time.
    public static let greedy = SamplingOptions()

    /// Random sampling with llama.cpp's usual defaults (top-k 40, top-p 0.95, min-p 0.05).
    public static func random(temperature: Float = 0.8, topK: Int? = 40, topP: Float? = 0.95,
                              minP: Float? = 0.05, seed: UInt32 = 0) -> SamplingOptions {
        SamplingOptions(mode: .random(topK: topK, topP: topP, minP: minP, temperature: temperature, seed: seed))
    }
}
