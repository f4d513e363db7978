import Foundation

/// A temporary machine root holding only `etc/apt` (and `etc/os-release`), for running the
/// setup scripts against a layout of apt sources; removed when the value is dropped.
final class AptFolder {
    let root: URL

    /// `files` maps paths under etc/apt to their text.
    init(_ files: [String: String], osRelease: String = "ID=debian\nVERSION_CODENAME=bookworm\n") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-apt-\(UUID().uuidString)")
        let apt = root.appendingPathComponent("etc/apt")
        try FileManager.default.createDirectory(at: apt.appendingPathComponent("sources.list.d"), withIntermediateDirectories: true)
        try osRelease.write(to: root.appendingPathComponent("etc/os-release"), atomically: true, encoding: .utf8)
        for (path, text) in files {
            try text.write(to: apt.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// `apt-sources.sh debian-mirror` for this root, split at its tabs: form, URI, keyring.
    func debianMirror() throws -> [String] {
        let result = try run(["debian-mirror", "--root", root.path])
        guard result.status == 0 else { throw ScriptFailure(result: result) }
        return result.stdout.trimmingCharacters(in: .newlines).split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }

    func run(_ arguments: [String]) throws -> ScriptRun {
        try ScriptRun(script: "apt-sources.sh", arguments: arguments)
    }
}

struct ScriptFailure: Error, CustomStringConvertible {
    let result: ScriptRun
    var description: String { "exit \(result.status): \(result.stderr)" }
}

/// One run of a script in scripts/, to its end, with its output.
struct ScriptRun {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts")

    let status: Int32
    let stdout: String
    let stderr: String

    init(script: String, arguments: [String] = [], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.scripts.appendingPathComponent(script).path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // both pipes are read to the end before waiting, so a full pipe cannot stall the script
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        stdout = String(decoding: out, as: UTF8.self)
        stderr = String(decoding: err, as: UTF8.self)
    }
}
