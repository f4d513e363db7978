import Testing
@testable import LocalModel

/// The llama.cpp build a saved prompt state is keyed by names the llama and ggml libraries the
/// process runs, the CPU variant among them, wherever they sit in /proc/self/maps: read to its
/// first page only, it named the CPU backend in one process and nothing in the next, so a warm
/// start missed the state the last process had saved.
@Suite struct LlamaBuildIdentityTests {
    @Test func itNamesTheLibrariesOfThisProcess() {
        let identity = LlamaRuntime.buildIdentity
        for library in ["/libllama.so", "/libggml-base.so", "/libggml-cpu"] {
            #expect(identity.contains(library), "\(library) is not in \(identity)")
        }
    }
}
