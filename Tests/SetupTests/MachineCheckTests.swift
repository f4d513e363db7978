import Foundation
import Testing

/// `scripts/check-machine.sh`, which setup runs last: a tool that an upgrade from unstable
/// broke must stop setup with its name and what to run.
@Suite("machine check after setup", .serialized) // apt-get check takes dpkg's lock
struct MachineCheckTests {
    /// A folder of stand-in commands put first on PATH.
    final class FakeCommands {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-bin-\(UUID().uuidString)")

        init(_ scripts: [String: String]) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, body) in scripts {
                let file = folder.appendingPathComponent(name)
                try "#!/bin/sh\n\(body)\n".write(to: file, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
            }
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        var path: String { folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") }
    }

    @Test func thisMachinePassesTheCheck() throws {
        let result = try ScriptRun(script: "check-machine.sh")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("checked:"))
    }

    @Test func aBrokenSSHIsNamedWithTheCommandThatMendsIt() throws {
        let commands = try FakeCommands([
            "ssh": "echo 'OpenSSL version mismatch. Built against 30000100, you have 30600050' >&2; exit 255",
        ])
        let result = try ScriptRun(script: "check-machine.sh", environment: ["PATH": commands.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("ssh does not work") && result.stderr.contains("OpenSSL version mismatch"))
        #expect(result.stderr.contains("apt-get install -t unstable openssh-client"))
    }

    @Test func everyFailingToolIsNamedNotOnlyTheFirst() throws {
        let commands = try FakeCommands(["git": "exit 1", "curl": "echo 'curl: broken' >&2; exit 2"])
        let result = try ScriptRun(script: "check-machine.sh", environment: ["PATH": commands.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("git does not work") && result.stderr.contains("curl does not work"))
        #expect(result.stderr.contains("after setup, git curl failed"))
    }

    @Test func anSSHDThatRefusesItsOpenSSLIsCaughtToo() throws {
        let commands = try FakeCommands(["sshd": "echo 'OpenSSL version mismatch. Built against 30000100, you have 30600050' >&2; exit 255"])
        let result = try ScriptRun(script: "check-machine.sh", environment: ["PATH": commands.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("sshd does not work") && result.stderr.contains("openssh-server"))
    }
}
