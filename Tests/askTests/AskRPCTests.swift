import Foundation
import RPCStandIn
import Testing

/// `--rpc` and `--tensor-split` on the command line (the servers themselves are tested with
/// real ggml-rpc-server processes in LocalModelTests/RPCTests).
@Suite("ask's --rpc and --tensor-split")
struct AskRPCTests {
    @Test func aServerNobodyRunsIsNamedWithWhatToDo() throws {
        // port 1 on loopback: nothing listens there, so the connection is refused at once
        let result = try AskProcess().run(["info", "--rpc", "127.0.0.1:1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the RPC server 127.0.0.1:1 cannot be reached"), "\(result.stderr)")
        #expect(result.stderr.contains("ggml-rpc-server -H HOST -p PORT"))
    }

    /// ggml asks a new server for its devices after its own handshake. A server gone by then
    /// ends with the typed error, not a wait for good; and since ggml's add of that server
    /// never returns (it holds ggml's lock for adding servers), the next server is refused with
    /// a reason instead of waiting on that lock. In a process of its own: that process cannot
    /// add RPC servers any more.
    @Test func aServerThatDiesWhileAskedForItsDevicesEndsWithATypedErrorNotAHang() throws {
        let first = try RPCStandInServer(.diesAfterTheHandshake), second = try RPCStandInServer(.diesAfterTheHandshake)
        defer { first.stop(); second.stop() }
        let result = try AskProcess().run(["info", "--rpc", "\(first.server),\(second.server)"], timeout: 120)
        #expect(!result.killedBySignal, "ask info waited for good")
        #expect(result.status == 1)
        #expect(result.stderr.contains("the RPC server \(first.server) stopped answering"), "\(result.stderr)")
        #expect(result.stdout.contains("\(second.server): the RPC server \(second.server) cannot be reached (ggml's RPC backend still waits on \(first.server)"), "\(result.stdout)")
    }

    @Test func valuesThatAreNoServersOrSplitsAreUsageErrors() throws {
        let server = try AskProcess().run(["--rpc", "box.lan", "Which trails are in Utah?"])
        #expect(server.status == 2)
        #expect(server.stderr.contains("--rpc needs host:port"), "\(server.stderr)")
        let split = try AskProcess().run(["--tensor-split", "1,x", "Which trails are in Utah?"])
        #expect(split.status == 2)
        #expect(split.stderr.contains("--tensor-split needs non-negative numbers"), "\(split.stderr)")
    }

    @Test func helpShowsTheFlags() throws {
        let ask = try AskProcess().run(["--help"])
        #expect(ask.stdout.contains("--rpc HOST:PORT") && ask.stdout.contains("--tensor-split") && ask.stdout.contains("unauthenticated"))
        let info = try AskProcess().run(["info", "--help"])
        #expect(info.stdout.contains("--rpc HOST:PORT"))
    }
}
