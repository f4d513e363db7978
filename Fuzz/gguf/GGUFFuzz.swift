// Fuzz target: LocalModel's GGUF header reader throws a typed error on a bad file, never crashes,
// and a header it accepts does not stop the process in llama.cpp either: it is loaded, so a
// hyperparameter llama.cpp asserts on that the reader let through (a block count, an expert or
// head count, a RoPE scaling type) aborts here, and libFuzzer keeps the input.
// FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import LocalModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard (try? bytes.write(to: ggufFuzzFile)) != nil else { return 0 }
    guard let header = try? GGUFFile(contentsOf: ggufFuzzFile), header.architecture != nil else { return 0 }
    // with its weights: llama.cpp reads the hyperparameters only then (a vocabulary-only load
    // stops before them)
    _ = try? LocalModel(contentsOf: ggufFuzzFile, configuration: .init(threads: 1))
    return 0
}

/// One file per process, rewritten for each input.
let ggufFuzzFile = FileManager.default.temporaryDirectory
    .appendingPathComponent("lantern-fuzz-gguf-\(ProcessInfo.processInfo.processIdentifier).gguf")

@main struct GGUFFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
