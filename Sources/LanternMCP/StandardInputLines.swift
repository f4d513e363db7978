import Foundation

/// The lines of standard input as they arrive, read on a thread of their own: `readLine`
/// blocks, and a blocked read must not hold one of the few threads Swift's tasks run on while
/// tool calls are in flight. The stream ends when the client closes its end of the pipe.
public enum StandardInputLines {
    public static func stream() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .unbounded)
        let reader = Thread {
            while let line = readLine(strippingNewline: true) { continuation.yield(line) }
            continuation.finish()
        }
        reader.start()
        return lines
    }
}
