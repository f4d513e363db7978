// Fuzz target: SearchIndex's query-string parser throws a typed error on bad input, never crashes.
// FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import SearchIndex

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parser = QueryStringParser(now: Date(timeIntervalSince1970: 1_714_566_600),
                                   timeZone: TimeZone(identifier: "UTC") ?? .current)
    _ = try? parser.parse(text)
    return 0
}

@main struct QueryStringFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
