import Foundation

/// A ggml RPC server (`ggml-rpc-server -H host -p port`) whose devices take part of a model's
/// layers, as llama.cpp's `--rpc host:port` does.
///
/// RPC traffic is unauthenticated and unencrypted: only name servers on loopback or a network
/// you trust.
public struct RPCServer: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `host:port` (an IPv6 address in brackets: `[::1]:50052`); throws
    /// `.invalidRPCServer` saying what is wrong.
    public init(parsing text: String) throws(LocalModelError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let colon = trimmed.lastIndex(of: ":") else {
            throw .invalidRPCServer(text: text, reason: "it has no port; write host:port, for example 127.0.0.1:50052")
        }
        var host = String(trimmed[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw .invalidRPCServer(text: text, reason: "the host is empty") }
        guard let port = Int(trimmed[trimmed.index(after: colon)...]), (1...65535).contains(port) else {
            throw .invalidRPCServer(text: text, reason: "the port must be a number from 1 to 65535")
        }
        self.init(host: host, port: port)
    }

    /// Reads a comma-separated list, as `--rpc` takes it.
    public static func list(parsing text: String) throws(LocalModelError) -> [RPCServer] {
        var servers: [RPCServer] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            servers.append(try RPCServer(parsing: String(part)))
        }
        return servers
    }

    /// `host:port`, the endpoint ggml connects to.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The devices this server offers, with their memory: connects to it.
    public func devices() throws(LocalModelError) -> [RemoteDevice] {
        try RPCBackend.deviceMemory(of: self).map { device in
            RemoteDevice(server: self, name: device.name, freeBytes: device.free, totalBytes: device.total)
        }
    }
}
