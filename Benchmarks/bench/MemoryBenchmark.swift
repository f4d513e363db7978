import Evaluations
import Foundation
import LocalModel
#if canImport(Glibc)
import Glibc
#endif

/// Section "memory" (issue 9 §7): peak resident memory of the `ask` binary answering one
/// sample question, against llama-server's after answering the same question with the same
/// model, threads and context through the e2e section's tool loop.
///
/// `ask` runs as a child process with its own XDG_DATA_HOME, so it neither reads nor writes the
/// user's indexes; its index is built by an unmeasured `ask index` first, so the figure is that
/// of answering. Both peaks are VmHWM, the kernel's high-water mark of each process's resident
/// set (see `runChild` for why not `ru_maxrss`).
enum MemoryBenchmark {
    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        let ask = try BenchmarkEnvironment.askBinary()
        let fixture = try await EndToEndBenchmark.Fixture(environment: environment)
        defer { fixture.remove() }
        guard let question = fixture.questions.first?.prompt else { throw BenchmarkFailure("the sample evaluation set has no questions") }
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: environment.modelConfiguration)
        let window = model.defaultContextWindow

        let home = fixture.folder.appendingPathComponent("xdg-data")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        _ = try await runChild(ask, ["index", "--corpus", SampleData.trailsCorpus.path, "--index", "trails"], dataHome: home,
                               log: fixture.folder, timeout: 120)
        let ours = try await runChild(ask, ["--index", "trails", "--model", environment.modelURL.path, "--threads", String(environment.threads),
                                      "--context", String(window.tokens), "--max-tokens", String(EndToEndBenchmark.maximumResponseTokens),
                                      "--json", question], dataHome: home, log: fixture.folder, timeout: EndToEndBenchmark.questionTimeout)

        // The model's own template (what a user gets by default) puts no tools in the prompt, so
        // that server answers a far shorter prompt; the tool-capable template gives it prompts
        // like ours. Both are reported, as in the e2e section.
        var rows: [BenchmarkRow] = []
        var notes = ["Question: \"\(question)\". ask: `ask --index trails --context \(window.tokens) --max-tokens \(EndToEndBenchmark.maximumResponseTokens) --json` "
                        + "as a child process (index built beforehand, unmeasured), its VmHWM polled every 20 ms until it exits; llama-server's VmHWM read after answering."]
        for (name, template) in [("model's template", nil), ("ChatML tools template", EndToEndBenchmark.chatMLTemplate)] as [(String, URL?)] {
            let server = try await LlamaServer(model: environment.modelURL, threads: environment.threads, context: window.tokens,
                                               chatTemplateFile: template, logDirectory: fixture.folder)
            defer { server.stop() }
            let outcome = await EndToEndBenchmark.peerAnswer(question, setup: fixture.setup, model: model, window: window, server: server)
            guard let theirs = server.peakResidentBytes else { throw BenchmarkFailure("cannot read llama-server's VmHWM from /proc") }
            server.stop()
            rows.append(BenchmarkRow(metric: "peak resident memory, ask vs llama-server (\(name))", ours: Double(ours) / mebibyte,
                                     reference: Double(theirs) / mebibyte, unit: "MiB", goal: 1.1, higherIsBetter: false))
            notes.append("llama-server (\(name)): \(outcome.calls) tool calls, \(outcome.promptTokens) prompt and \(outcome.completionTokens) completion tokens"
                         + (outcome.problem.map { ", failed: \(String($0.prefix(160)))" } ?? "") + ".")
        }
        return SectionReport(
            name: "memory", title: "Memory: peak resident set answering one question",
            reference: "llama-server --jinja -t \(environment.threads) -c \(window.tokens), with the model's template and with the ChatML tools template, VmHWM after answering the same question",
            rows: rows, notes: notes)
    }

    private static let mebibyte = 1024.0 * 1024

    /// Runs `executable` to completion with XDG_DATA_HOME set to `dataHome`, its output in the
    /// file `output` (by default a new file under `log`), and returns its peak resident set in
    /// bytes; throws on a non-zero exit, and kills it and throws when it has not finished within
    /// `timeout` seconds.
    ///
    /// The peak is the child's VmHWM, polled every 20 ms while it runs (it only grows, so the
    /// last reading is the peak unless memory grew in the final 20 ms). Not `ru_maxrss` from
    /// `wait4`: posix_spawn starts the child in the parent's address space, and Linux folds that
    /// space's high-water mark into the child's `ru_maxrss` at exec, so it reported this
    /// harness's own peak (486 MiB) instead of ask's (367 MiB).
    static func runChild(_ executable: URL, _ arguments: [String], dataHome: URL, log: URL, output: URL? = nil, timeout: Double) async throws -> Int {
        let output = output ?? log.appendingPathComponent("child-\(UUID().uuidString).log")
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        let argv = ([executable.path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv + [nil], envp + [nil])
        guard spawned == 0 else { throw BenchmarkFailure("cannot start \(executable.path): \(String(cString: strerror(spawned)))") }
        ChildProcesses.shared.register(pid)
        defer { ChildProcesses.shared.unregister(pid) }
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(timeout)
        var killed = false
        var peak = 0
        while true {
            peak = max(peak, ProcessMemory.peakResidentBytes(pid: pid) ?? 0)
            let reaped = wait4(pid, &status, WNOHANG, nil)
            if reaped == pid { break }
            if reaped == -1 && errno != EINTR {
                throw BenchmarkFailure("waiting for \(executable.lastPathComponent) failed: \(String(cString: strerror(errno)))")
            }
            if !killed && ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)   // reaped on the next turn
                killed = true
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        if killed {
            throw BenchmarkFailure("\(executable.lastPathComponent) \(arguments.first ?? "") did not finish within \(Int(timeout)) s and was killed; its output ends: \(text.suffix(400))")
        }
        // WIFEXITED and WEXITSTATUS are macros Swift does not import: exited normally when the
        // low 7 bits are 0, and the exit code is the next byte
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw BenchmarkFailure("\(executable.lastPathComponent) \(arguments.first ?? "") failed (wait status \(status)): \(text.suffix(400))")
        }
        guard peak > 0 else { throw BenchmarkFailure("cannot read \(executable.lastPathComponent)'s VmHWM from /proc/\(pid)/status") }
        return peak
    }
}
