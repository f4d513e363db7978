import Foundation
import LocalModel
import Synchronization

/// Writes the server's messages to its output, one JSON object per line as MCP's stdio
/// transport requires. Responses finish on several tasks at once, so a lock keeps each line
/// whole. Once the client has closed the pipe, writes are dropped: nobody reads them.
final class MessageWriter: Sendable {
    private let output: Mutex<FileHandle?>

    init(_ output: FileHandle) {
        self.output = Mutex(output)
    }

    /// Sends `message` (a JSON-RPC response) as one line.
    func send(_ message: JSONValue) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // JSONValue encodes every case; a failure here would be a bug in its Encodable.
        guard var line = try? encoder.encode(message) else { return }
        line.append(UInt8(ascii: "\n"))
        output.withLock { handle in
            do {
                try handle?.write(contentsOf: line)
            } catch {
                handle = nil
            }
        }
    }

    /// A result response to request `id`.
    func respond(to id: JSONRPCID, result: JSONValue) {
        send(["jsonrpc": "2.0", "id": id.json, "result": result])
    }

    /// An error response; `id` is nil (JSON null) when the request's id could not be read.
    func respond(to id: JSONRPCID?, error: JSONRPCError) {
        send(["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json])
    }
}
