/// One device of an `RPCServer` (its CPU, or a GPU of that machine), as ggml sees it.
public struct RemoteDevice: Sendable, Hashable {
    public let server: RPCServer
    /// ggml's name for it in this process (`RPC0`, `RPC1`, ...).
    public let name: String
    /// Memory the device reports free and in all, in bytes: what bounds its share of layers.
    public let freeBytes: Int
    public let totalBytes: Int
}
