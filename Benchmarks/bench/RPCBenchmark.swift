import Foundation
import LocalModel
import TokenBudget

/// Section "rpc": prompt and generation tokens/s with the model on this machine alone, and
/// split over one and two ggml-rpc-server processes on loopback, beside `llama-bench --rpc`
/// on the same split, in the same run; and the bytes the servers exchange per generated token
/// (their sockets' TCP counters).
///
/// SmolLM2's 30 layers: with servers, the last 20 leave the CPU (`-ngl 20`), all to one server
/// or 10 to each (`-ts 1/1`), and 10 stay here. Loopback measures the protocol's cost without a
/// network's latency; both sides talk to the same two server processes, one client at a time
/// (a server serves one connection at a time, so Lantern's model is released before
/// llama-bench runs).
enum RPCBenchmark {
    static let promptTokens = 128
    static let generatedTokens = 32
    static let offloadedLayers = 20

    /// One measured split: its name, the servers it uses and how the layers divide over them.
    struct Split {
        let name: String
        let serverCount: Int
        var proportions: [Double] { Array(repeating: 1, count: serverCount) }
    }

    static func run(_ environment: BenchmarkEnvironment) async throws -> SectionReport {
        // tg32 takes a quarter of a second here: one busy moment moves a run's figure a lot
        let repetitions = environment.quick ? 1 : 7
        let servers = try [LoopbackServer(), LoopbackServer()]
        defer { servers.forEach { $0.stop() } }
        let splits = [Split(name: "local", serverCount: 0), Split(name: "local+1", serverCount: 1), Split(name: "local+2", serverCount: 2)]
        var rows: [BenchmarkRow] = []
        var missed: [String] = []
        for split in splits {
            let used = Array(servers.prefix(split.serverCount))
            var ours: [EngineBenchmark.Speed] = [], reference: [EngineBenchmark.Speed] = [], bytesPerToken: [Double] = []
            for _ in 0..<repetitions {
                reference.append(try llamaBench(environment, split: split, servers: used))
                let (speed, bytes) = try await probe(environment, split: split, servers: used)
                ours.append(speed)
                if let bytes { bytesPerToken.append(bytes) }
            }
            let label = split.serverCount == 0 ? "local only" : "\(split.name) (\(offloadedLayers) of 30 layers on \(split.serverCount == 1 ? "the server" : "the servers, 10 each"))"
            let promptMetric = "pp\(promptTokens), \(label)", generationMetric = "tg\(generatedTokens), \(label) (greedy sampling included)"
            rows += [EngineBenchmark.row(promptMetric, ours.map(\.prompt), reference.map(\.prompt)),
                     EngineBenchmark.row(generationMetric, ours.map(\.generation), reference.map(\.generation))]
            missed += [EngineBenchmark.missedNote(promptMetric, Sample(ours.map(\.prompt)), Sample(reference.map(\.prompt)), perToken: "prompt token"),
                       EngineBenchmark.missedNote(generationMetric, Sample(ours.map(\.generation)), Sample(reference.map(\.generation)),
                                                  perToken: "generated token", inDecode: Sample(ours.compactMap(\.generationInDecode)).median)].compactMap { $0 }
            if !bytesPerToken.isEmpty {
                let sample = Sample(bytesPerToken)
                rows.append(BenchmarkRow(metric: "bytes to and from the servers per generated token, \(split.name)", ours: sample.median,
                                         reference: nil, unit: "B", goal: nil, higherIsBetter: false, spread: sample.spread,
                                         note: "(TCP bytes sent + received on the servers' sockets, ss -ti, over the tg run)"))
            }
        }
        return SectionReport(
            name: "rpc",
            title: "RPC: tokens per second with layers on loopback ggml-rpc-server processes vs llama-bench --rpc",
            reference: "llama-bench -p \(promptTokens) -n \(generatedTokens) -t \(environment.threads) -r 1 [-ngl \(offloadedLayers) --rpc SERVERS -ts 1[/1]], run \(repetitions) times interleaved with ours against the same servers (ggml-rpc-server -t 1 each); medians",
            rows: rows,
            notes: missed + ["The machine is shared: the servers, the client and whatever else runs compete for the same \(ProcessInfo.processInfo.activeProcessorCount) cores, so the split rows measure the protocol's cost on one machine, not the gain of a second one."])
    }

    private static func llamaBench(_ environment: BenchmarkEnvironment, split: Split, servers: [LoopbackServer]) throws -> EngineBenchmark.Speed {
        var arguments = ["-m", environment.modelURL.path, "-p", String(promptTokens), "-n", String(generatedTokens),
                         "-t", String(environment.threads), "-r", "1", "-o", "json"]
        if !servers.isEmpty {
            arguments += ["-ngl", String(offloadedLayers), "--rpc", servers.map(\.server.description).joined(separator: ","),
                          "-ts", split.proportions.map { String(format: "%g", $0) }.joined(separator: "/")]
        }
        return try EngineBenchmark.speed(ofLlamaBenchJSON: BenchmarkEnvironment.run("/usr/bin/llama-bench", arguments))
    }

    /// Lantern's side, in this process: loads the model split as llama-bench does, warms up,
    /// measures one pp and one tg, and counts the servers' bytes over the tg. The model is
    /// released on return, which closes its connections.
    private static func probe(_ environment: BenchmarkEnvironment, split: Split, servers: [LoopbackServer]) async throws -> (EngineBenchmark.Speed, Double?) {
        var configuration = LocalModel.Configuration(threads: environment.threads)
        if !servers.isEmpty {
            configuration.gpuLayers = offloadedLayers
            configuration.rpcServers = servers.map(\.server)
            configuration.tensorSplit = split.proportions
        }
        let model = try LocalModel(contentsOf: environment.modelURL, configuration: configuration)
        let prompt = EngineBenchmark.randomTokens(model, count: promptTokens)
        _ = try await EngineBenchmark.measure(model, prompt: Array(prompt.prefix(16)), generate: 8)
        let promptSummary = try await EngineBenchmark.measure(model, prompt: prompt, generate: 1)
        let before = servers.map(\.bytesExchanged)
        let generation = try await EngineBenchmark.generation(model.makeContext(window: ContextWindow(tokens: 1 + generatedTokens + 1)),
                                                              after: Array(prompt.prefix(1)), count: generatedTokens)
        let exchanged = zip(servers.map(\.bytesExchanged), before).map { $0 - $1 }.reduce(0, +)
        let speed = EngineBenchmark.Speed(prompt: Double(prompt.count) / promptSummary.prefillDuration.seconds,
                                          generation: generation.speed, generationInDecode: generation.inDecode)
        return (speed, servers.isEmpty ? nil : Double(exchanged) / Double(generatedTokens))
    }

    /// A ggml-rpc-server on 127.0.0.1 at a port free when it starts, stopped by its pid.
    final class LoopbackServer: Sendable {
        static let executable = "/usr/libexec/x86_64-linux-gnu/llama/bin/ggml-rpc-server"
        let server: RPCServer
        let pid: Int32
        private let process: Process

        init() throws {
            guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
                throw BenchmarkFailure("no \(Self.executable); run scripts/setup.sh (it installs llama.cpp-tools-extra)")
            }
            let port = try Self.freePort()
            server = RPCServer(host: "127.0.0.1", port: port)
            process = Process()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = ["-H", "127.0.0.1", "-p", String(port), "-t", "1"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            pid = process.processIdentifier
            ChildProcesses.shared.register(pid)
            // ready when it lists its devices (a refused connection fails at once until then)
            for _ in 0..<100 {
                if (try? server.devices()) != nil { return }
                usleep(100_000)
            }
            stop()
            throw BenchmarkFailure("ggml-rpc-server did not start listening on \(server)")
        }

        func stop() {
            guard process.isRunning else { return }
            kill(pid, SIGKILL)
            process.waitUntilExit()
            ChildProcesses.shared.unregister(pid)
        }

        /// Bytes the server's connections have sent and received so far: the kernel's TCP
        /// counters (`ss -ti`: bytes_sent + bytes_received) of the sockets on its port. Not
        /// /proc/PID/io: its rchar and wchar leave out send() and recv().
        var bytesExchanged: Int {
            let output = (try? BenchmarkEnvironment.run("/usr/bin/ss", ["-tinH", "state", "established", "( sport = :\(server.port) )"])) ?? ""
            return output.split(whereSeparator: \.isWhitespace).reduce(0) { total, field in
                guard field.hasPrefix("bytes_sent:") || field.hasPrefix("bytes_received:") else { return total }
                return total + (Int(field.split(separator: ":").last ?? "") ?? 0)
            }
        }

        /// The kernel's pick for a socket bound to port 0 on loopback.
        private static func freePort() throws -> Int {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
            }
            guard named else { throw BenchmarkFailure("no free port on 127.0.0.1") }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
