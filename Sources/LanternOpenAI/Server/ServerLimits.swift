/// What one server takes at most, so that no client can hold the model, the memory or the
/// threads of the others: `ask serve` sets them from its options, whose defaults are these.
public struct ServerLimits: Sendable {
    /// The largest request body; a larger one is refused with 413.
    public var maximumBodyBytes = 1024 * 1024
    /// The most tokens a request may ask for per generation round (`max_tokens`), and what
    /// one that asks for none gets. The first round, which must search, always gets this cap:
    /// its call is the server's, and cut at a client's short cap it would not parse.
    public var maximumTokens = 512
    /// Questions answered at once: each in a sequence of its own in the model's one llama.cpp
    /// context (`LocalModel.Configuration.parallelSessions`, which the model must be loaded
    /// with), their decodes batched together.
    public var parallel = 1
    /// Questions waiting for a turn beyond those; one more is refused with 429.
    public var queue = 8
    /// Open connections, each read and written by a thread of its own; one more is refused
    /// with 503 before its request is read.
    public var maximumConnections = 64
    /// Seconds a client may send nothing while the request is read, or take nothing while
    /// the answer is written, before its connection is closed.
    public var socketTimeout = 60

    public init() {}
}
