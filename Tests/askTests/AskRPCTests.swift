import Foundation
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
