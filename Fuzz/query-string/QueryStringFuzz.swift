// Fuzz target: SearchIndex's query-string parser throws a typed error on bad input, never crashes.
// scripts/fuzz.sh builds it with -sanitize=fuzzer -D LANTERN_FUZZ and runs libFuzzer's driver;
// the normal build gets a main that runs each file given as an argument through the same function.
import Foundation
import SearchIndex

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parser = QueryStringParser(now: Date(timeIntervalSince1970: 1_714_566_600),
                                   timeZone: TimeZone(identifier: "UTC") ?? .current)
    _ = try? parser.parse(text)
    return 0
}

#if LANTERN_FUZZ
// SwiftPM links an executable target's main under a name of its own, so libFuzzer's main is not
// used; this main hands the command line to libFuzzer's driver instead.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@main struct QueryStringFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) })
    }
}
#else
@main struct QueryStringFuzz {
    static func main() throws {
        for path in CommandLine.arguments.dropFirst() {
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let count = bytes.count
            bytes.append(0) // a non-empty buffer always has a base address
            _ = bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { fuzz($0, count) } }
        }
    }
}
#endif
