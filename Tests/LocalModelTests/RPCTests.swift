import Foundation
import Testing
import LocalModel
import RPCStandIn
import TestModelSupport

/// A model spread over real ggml-rpc-server processes on loopback, and the ways a server can
/// fail. Every server is stopped by its pid when its test ends, passed or failed.
@Suite("Layers on ggml RPC servers", .serialized, .enabled(if: RPCServerProcess.isInstalled, "ggml-rpc-server is not installed; run scripts/setup.sh"))
struct RPCTests {
    let template = ChatTemplate(family: .chatml)

    func prompt(_ question: String) -> String {
        template.render([ChatMessage(.system, "You are a helpful assistant."), ChatMessage(.user, question)])
    }

    /// SmolLM2 has 30 layers: 20 leave the CPU, 10 to each server, 10 stay here.
    func splitModel(over servers: [RPCServer], split: [Double] = [1, 1]) throws -> LocalModel {
        try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 2, gpuLayers: 20, rpcServers: servers, tensorSplit: split))
    }

    /// Half of SmolLM2's 30 layers on `server`, the rest here.
    func halfOn(_ server: RPCServer) throws -> LocalModel {
        try LocalModel(contentsOf: TestModel.url, configuration: .init(threads: 2, gpuLayers: 15, rpcServers: [server]))
    }

    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    @Test func aQuestionSplitOverTwoServersGivesTheLocalGreedyAnswer() async throws {
        let first = try RPCServerProcess()
        let second = try RPCServerProcess()
        defer { first.stop(); second.stop() }
        let before = try [first, second].map { try Self.residentBytes(of: $0.pid) }
        let split = try splitModel(over: [first.server, second.server])
        // each server now holds its third of the weights (about 25 MB of the 92 MB file)
        for (server, resident) in zip([first, second], before) {
            #expect(try Self.residentBytes(of: server.pid) - resident > 10 << 20, "\(server.server) holds no layers")
        }
        let parameters = GenerationParameters(maximumTokens: 24)
        let question = prompt("Name three rivers in Europe and say one thing about each.")
        let (remote, remoteSummary) = try await TestModel.collect(split.makeContext(window: .k4).generate(prompt: question, parameters: parameters))
        let (local, localSummary) = try await TestModel.collect(TestModel.shared().makeContext(window: .k4).generate(prompt: question, parameters: parameters))
        // same kernels (the servers load this machine's best CPU variant, as the process does)
        // and the same order of operations per layer: the same greedy tokens
        #expect(!remote.isEmpty)
        #expect(remote == local)
        #expect(remoteSummary?.generatedTokens == localSummary?.generatedTokens)
    }

    /// An answer that goes on until the 4K window is full, far longer than its server lives.
    static let untilTheWindowIsFull = GenerationParameters(maximumTokens: 4096, stopsAtEndOfGeneration: false)

    /// Server CPU time (in 1/100 s) the answer gets before the server is killed: its prompt
    /// and a few tokens. The kill comes from a thread of its own, not from the reader: the
    /// engine thread does not wait for the reader, which on a busy machine may not run before
    /// the answer is over.
    static let ticksBeforeTheKill = 5

    @Test func aServerKilledMidAnswerEndsTheQuestionWithATypedError() async throws {
        let server = try RPCServerProcess()
        defer { server.stop() }
        let model = try halfOn(server.server)
        do {
            let stream = try model.makeContext(window: .k4).generate(prompt: prompt("Tell me a long story about a lighthouse."), parameters: Self.untilTheWindowIsFull)
            server.stop(afterComputing: Self.ticksBeforeTheKill)
            do {
                for try await _ in stream {}
                Issue.record("the answer finished although its server was killed in the middle of it")
            } catch let error as LocalModelError {
                #expect(error == .rpcServerDied(server: server.server.description))
                #expect(error.description.contains(server.server.description))
            }
        }
        // the process goes on: another model still answers, on the fresh engine thread (which
        // by then has given the dead answer's sequence back to the lost model's context)
        let (after, _) = try await TestModel.collect(TestModel.shared().makeContext(window: .k4)
            .generate(prompt: prompt("Say hello."), parameters: GenerationParameters(maximumTokens: 4)))
        #expect(!after.isEmpty)
        // and the model that lost its server says so for any further work, free sequence or not
        #expect(throws: LocalModelError.rpcServerDied(server: server.server.description)) {
            _ = try model.makeContext(window: .k4)
        }
    }

    @Test func aServerKilledWhileAnotherModelGeneratesEndsOnlyThatQuestion() async throws {
        let server = try RPCServerProcess()
        defer { server.stop() }
        let local = try TestModel.shared()
        let question = prompt("Name three rivers in Europe and say one thing about each.")
        let parameters = GenerationParameters(maximumTokens: 32, stopsAtEndOfGeneration: false)
        let (alone, _) = try await TestModel.collect(local.makeContext(window: .k4).generate(prompt: question, parameters: parameters))
        let remote = try halfOn(server.server)
        let remoteContext = try remote.makeContext(window: .k4)
        let besideContext = try local.makeContext(window: .k4)
        // both answers go to the engine thread at once; the server dies under the first
        let stream = remoteContext.generate(prompt: prompt("Tell me a long story about a lighthouse."), parameters: Self.untilTheWindowIsFull)
        let besideStream = besideContext.generate(prompt: question, parameters: parameters)
        server.stop(afterComputing: Self.ticksBeforeTheKill)
        async let beside = TestModel.collect(besideStream)
        do {
            for try await _ in stream {}
            Issue.record("the answer finished although its server was killed in the middle of it")
        } catch let error as LocalModelError {
            #expect(error == .rpcServerDied(server: server.server.description))
        }
        // the other model's answer is whole and the same as alone
        #expect(try await beside.0 == alone)
    }

    @Test func aServerThatDiesBetweenQuestionsEndsTheNextWithATypedError() async throws {
        let server = try RPCServerProcess()
        defer { server.stop() }
        var model: LocalModel? = try halfOn(server.server)
        let parameters = GenerationParameters(maximumTokens: 4)
        let (first, _) = try await TestModel.collect(try #require(model).makeContext(window: .k4).generate(prompt: prompt("Say hello."), parameters: parameters))
        #expect(!first.isEmpty)
        server.stop()
        do {
            // the context's buffers or its first decode meet the dead server, whichever is first
            let context = try #require(model).makeContext(window: .k4)
            _ = try await TestModel.collect(context.generate(prompt: prompt("Say hello again."), parameters: parameters))
            Issue.record("a question on a model whose server is gone was answered")
        } catch let error as LocalModelError {
            #expect(error == .rpcServerDied(server: server.server.description))
        }
        // letting go of the model frees nothing on the dead server, and the process goes on
        model = nil
        let (after, _) = try await TestModel.collect(TestModel.shared().makeContext(window: .k4).generate(prompt: prompt("Say hello."), parameters: parameters))
        #expect(!after.isEmpty)
    }

    @Test func aModelLetGoOfAfterItsServerStoppedLeavesTheProcessRunning() async throws {
        let server = try RPCServerProcess()
        var model: LocalModel? = try halfOn(server.server)
        #expect(model != nil)
        server.stop()
        // its buffers are freed on the engine thread, which meets the dead server there
        model = nil
        let (after, _) = try await TestModel.collect(TestModel.shared().makeContext(window: .k4)
            .generate(prompt: prompt("Say hello."), parameters: GenerationParameters(maximumTokens: 4)))
        #expect(!after.isEmpty)
        // and the server is known lost: a new model on it is refused with the same error
        #expect(throws: LocalModelError.rpcServerDied(server: server.server.description)) {
            _ = try halfOn(server.server)
        }
    }

    @Test func aPortNobodyListensOnIsUnreachable() throws {
        let server = RPCServer(host: "127.0.0.1", port: try LoopbackPort.free())
        #expect {
            _ = try splitModel(over: [server], split: [])
        } throws: { error in
            guard case .rpcServerUnreachable(let named, _) = error as? LocalModelError else { return false }
            return named == server.description && (error as? LocalModelError)?.description.contains("ggml-rpc-server") == true
        }
    }

    @Test func anAddressThatDropsPacketsIsUnreachableNotAHang() throws {
        // TEST-NET-1 (RFC 5737): never routed; the connect times out or fails at once
        let server = RPCServer(host: "192.0.2.1", port: 50052)
        #expect {
            _ = try server.devices()
        } throws: { error in
            guard case .rpcServerUnreachable(let named, _) = error as? LocalModelError else { return false }
            return named == "192.0.2.1:50052"
        }
    }

    @Test func aServerOfAnotherVersionIsAVersionMismatch() throws {
        let other = try RPCStandInServer(.otherVersion)
        defer { other.stop() }
        #expect(throws: LocalModelError.rpcVersionMismatch(server: other.server.description, serverVersion: "7.0.0")) {
            _ = try splitModel(over: [other.server], split: [])
        }
    }

    @Test func aServerThatNeverAnswersIsUnreachableNotAHang() throws {
        let silent = try RPCStandInServer(.silent)
        defer { silent.stop() }
        #expect {
            _ = try splitModel(over: [silent.server], split: [])
        } throws: { error in
            guard case .rpcServerUnreachable(let named, let reason) = error as? LocalModelError else { return false }
            return named == silent.server.description && reason.contains("did not answer the handshake")
        }
    }

    @Test func aSplitMustHaveOneProportionPerDevice() throws {
        let server = try RPCServerProcess()
        defer { server.stop() }
        #expect {
            _ = try splitModel(over: [server.server], split: [1, 1, 1])
        } throws: { error in
            guard case .invalidTensorSplit(let proportions, let devices) = error as? LocalModelError else { return false }
            return proportions == [1, 1, 1] && devices.count == 1
        }
    }

    @Test func aServerListsItsDevicesWithTheirMemory() throws {
        let server = try RPCServerProcess()
        defer { server.stop() }
        let devices = try server.server.devices()
        #expect(devices.count == 1)
        #expect(devices.allSatisfy { $0.server == server.server && $0.totalBytes > 0 && $0.freeBytes <= $0.totalBytes })
    }

    @Test func serverListsAreReadAsTheFlagTakesThem() throws {
        #expect(try RPCServer.list(parsing: "127.0.0.1:50052,[::1]:50053,box.lan:1") ==
                [RPCServer(host: "127.0.0.1", port: 50052), RPCServer(host: "::1", port: 50053), RPCServer(host: "box.lan", port: 1)])
        #expect(RPCServer(host: "::1", port: 50053).description == "[::1]:50053")
        for bad in ["127.0.0.1", ":50052", "host:0", "host:65536", "host:port", "a:1,"] {
            #expect(throws: LocalModelError.self, "\(bad)") { _ = try RPCServer.list(parsing: bad) }
        }
    }
}
