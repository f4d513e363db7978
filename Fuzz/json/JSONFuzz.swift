// Fuzz target: LocalModel's JSON parser (strict and prefix) throws or returns nil on bad input, never crashes.
// FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import LocalModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? JSONValue(parsing: text)
    _ = JSONValue(parsingPrefix: text)
    return 0
}

@main struct JSONFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
