import Foundation

/// What a fuzz target checks for one input (libFuzzer's `LLVMFuzzerTestOneInput`); returns 0.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

/// The `main` every fuzz target under Fuzz/ shares.
///
/// Built by scripts/fuzz.sh (`-sanitize=fuzzer -D LANTERN_FUZZ`), it hands the command line to
/// libFuzzer's driver: SwiftPM links an executable target's entry point under a name of its own,
/// so libFuzzer's `main` would go unused. In the normal build it runs each file given as an
/// argument through the same function, so a crashing input replays without the fuzzer.
public enum FuzzDriver {
    /// Reports a broken property of the input under test as a crash, which libFuzzer keeps as
    /// an artifact and the replay mode shows: `what` names the target, `text` is the input.
    public static func require(_ condition: Bool, _ what: String, _ message: @autoclosure () -> String, _ text: String) {
        guard !condition else { return }
        FileHandle.standardError.write(Data("\(what): \(message()): \(text.debugDescription)\n".utf8))
        abort()
    }

    public static func run(_ testOneInput: FuzzTestOneInput) -> Never {
        #if LANTERN_FUZZ
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
        #else
        for path in CommandLine.arguments.dropFirst() {
            guard var bytes = FileManager.default.contents(atPath: path).map(Array.init) else {
                FileHandle.standardError.write(Data("fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            let count = bytes.count
            bytes.append(0) // a non-empty buffer always has a base address
            _ = bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { testOneInput($0, count) } }
        }
        exit(0)
        #endif
    }
}

#if LANTERN_FUZZ
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ body: FuzzTestOneInput) -> CInt
#endif
