/// The snapshots of a streaming guided response, and its decoded value at the end.
///
/// Apple's `ResponseStream<Content>` yields `Content.PartiallyGenerated`, a type the
/// `@Generable` macro writes with every property optional. Without macros there is no such
/// type to name, so a snapshot's content is the `GeneratedContent` completed so far: the
/// objects and arrays opened so far, with only the members and elements written in full
/// (every value in a snapshot is final; later snapshots only add to it). `collect()` returns
/// the typed response, as Apple's does.
public struct GuidedResponseStream<Content: Generable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = LanguageModelSession.Snapshot<GeneratedContent>
    let stream: AsyncThrowingStream<Element, any Error>
    let final: @Sendable () async throws -> LanguageModelSession.Response<Content>

    public func makeAsyncIterator() -> AsyncThrowingStream<Element, any Error>.Iterator { stream.makeAsyncIterator() }

    /// Waits for the end and returns the decoded response.
    public func collect() async throws -> LanguageModelSession.Response<Content> {
        for try await _ in stream {}
        return try await final()
    }
}
