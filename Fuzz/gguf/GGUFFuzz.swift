// Fuzz target: LocalModel's GGUF metadata reader throws a typed error on a bad file, never crashes.
// FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import LocalModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard (try? bytes.write(to: ggufFuzzFile)) != nil else { return 0 }
    _ = try? GGUFFile(contentsOf: ggufFuzzFile)
    return 0
}

/// One file per process, rewritten for each input.
let ggufFuzzFile = FileManager.default.temporaryDirectory
    .appendingPathComponent("lantern-fuzz-gguf-\(ProcessInfo.processInfo.processIdentifier).gguf")

@main struct GGUFFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
