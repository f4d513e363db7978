import Synchronization

/// The `searchResults` stream and its continuation. It never throws, buffers until read (so it
/// can be consumed before the session starts), and finishes when the tool is released or
/// `finish()` is called.
final class ReplyChannel: Sendable {
    let stream: AsyncStream<SearchReply>
    private let continuation: AsyncStream<SearchReply>.Continuation
    private let nextQuery = Atomic<Int>(1)

    init() {
        (stream, continuation) = AsyncStream<SearchReply>.makeStream(bufferingPolicy: .unbounded)
    }

    deinit { continuation.finish() }

    func makeQueryToken() -> SearchReply.QueryToken {
        SearchReply.QueryToken(value: nextQuery.wrappingAdd(1, ordering: .relaxed).oldValue)
    }

    func send(_ reply: SearchReply) { continuation.yield(reply) }

    func finish() { continuation.finish() }
}
