import Foundation
import Testing

/// What `ask` says about a model file it cannot use, run as a real process: the reason and the
/// fix, on stderr, with exit status 1 (no crash, no "download it again" for a permission problem).
@Suite("ask names the reason a model file cannot be used")
struct AskModelFileErrorTests {
    @Test func aFileThisUserCannotReadIsPermissionDenied() throws {
        let ask = try AskProcess()
        let folder = try TemporaryFolder()
        // the other user must be able to reach the file's folder, only not read the file
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ask.dataHome.url.path)
        let file = folder.url.appendingPathComponent("locked.gguf")
        try FileManager.default.copyItem(at: AskProcess.defaultModel, to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        // root reads any file whatever its mode, so as root `ask` runs as nobody
        let arguments = ["info", "--model", file.path]
        let result = getuid() == 0
            ? try ask.run(asNobody: arguments)
            : try ask.run(arguments)
        #expect(!result.killedBySignal)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("permission denied"), "\(result.stderr)")
        #expect(result.stderr.contains("chmod"), "\(result.stderr)")
        #expect(!result.stderr.contains("damaged"), "\(result.stderr)")
        #expect(!result.stderr.contains("download"), "\(result.stderr)")
    }

    @Test func anEmptyFileIsCalledEmpty() throws {
        let ask = try AskProcess()
        let file = try ask.dataHome.write("", to: "empty.gguf")
        let result = try ask.run(["info", "--model", file.path])
        #expect(!result.killedBySignal)
        #expect(result.status == 1)
        #expect(result.stderr.contains("is empty (0 bytes)"), "\(result.stderr)")
        #expect(!result.stderr.contains("starts with \"\""), "\(result.stderr)")
    }

    @Test func gpuLayersWithoutAGPUBackendAreAnError() throws {
        let ask = try AskProcess()
        let info = try ask.run(["info", "--model", AskProcess.defaultModel.path])
        try #require(info.status == 0, "\(info.stderr)")
        guard info.stdout.contains("not available (CPU only)") else { return }  // a GPU backend is loaded here
        let result = try ask.run(["--model", AskProcess.defaultModel.path, "--gpu-layers", "9999", "Which trails have water?"])
        #expect(!result.killedBySignal)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("no GPU backend is loaded"), "\(result.stderr)")
        #expect(result.stderr.contains("scripts/setup.sh --gpu"), "\(result.stderr)")
    }
}

extension AskProcess {
    /// Runs `ask arguments...` as the user nobody (for tests that need a user without root's
    /// right to read every file).
    func run(asNobody arguments: [String]) throws -> Result {
        var wrapped = self
        wrapped.executable = URL(fileURLWithPath: "/usr/bin/setpriv")
        return try wrapped.run(["--reuid=65534", "--regid=65534", "--clear-groups", "--", Self.binary.path] + arguments)
    }
}
