/// A seeded generator (SplitMix64) for targets that make random choices: seeded from the input,
/// so one input always takes the same path and a crash replays.
public struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    /// Seeded from the bytes of one input (FNV-1a).
    public init(seedingFrom bytes: UnsafeBufferPointer<UInt8>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = hash
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
