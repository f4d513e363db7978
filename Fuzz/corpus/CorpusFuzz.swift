// Fuzz target: SearchIndex's JSON Lines corpus reader throws a typed error on bad input, never crashes.
// FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import SearchIndex

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? CorpusReader().items(fromText: text, path: "fuzz.jsonl")
    return 0
}

@main struct CorpusFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
