import CLlama
import Foundation
import Testing
import LocalModel

/// When llama.cpp ends the process anyway (an internal assertion), what it prints goes to
/// stderr: stdout belongs to the program (`ask --json` writes one JSON object there), and ggml's
/// default — attaching gdb, whose backtrace lands on stdout — broke it.
@Suite("llama.cpp's abort output stays off stdout")
struct LlamaAbortOutputTests {
    @Test func anAssertionInsideLlamaCppWritesOnlyToStderr() async {
        let result = await #expect(processExitsWith: .signal(SIGABRT), observing: [\.standardOutputContent, \.standardErrorContent]) {
            _ = BackendDevice.available  // loads the backends the way every model load does
            print("before", terminator: "")
            // an index past the last device: ggml's GGML_ASSERT aborts the process
            _ = ggml_backend_dev_get(ggml_backend_dev_count() + 1)
        }
        guard let result else { return }
        let stdout = String(decoding: result.standardOutputContent, as: UTF8.self)
        let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(stdout == "before", "stdout held: \(stdout.prefix(400))")
        #expect(stderr.contains("llama.cpp stopped the process"), "\(stderr.prefix(400))")
        #expect(stderr.contains("GGML_ASSERT"), "\(stderr.prefix(400))")
    }
}
