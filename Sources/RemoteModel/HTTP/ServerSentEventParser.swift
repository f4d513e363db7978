/// Reads a `text/event-stream` body as it arrives: each event's `data` (its `data:` lines
/// joined by line breaks), in order, once the empty line that ends it has arrived. Lines are
/// kept as bytes until they end, so a character split between two reads is never cut.
/// Comments (`:`) and the other fields (`event:`, `id:`, `retry:`) are skipped: the servers
/// this reads (llama-server, vLLM) put everything in `data`.
struct ServerSentEventParser {
    private var line: [UInt8] = []
    private var data: [String] = []
    /// A CR just ended a line: a LF right after it belongs to the same line end.
    private var afterCarriageReturn = false

    /// The events completed by `bytes`.
    mutating func feed(_ bytes: [UInt8]) -> [String] {
        var events: [String] = []
        for byte in bytes {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                afterCarriageReturn = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    /// The event an unterminated stream ends with, if its last line held data.
    mutating func finish() -> String? {
        if !line.isEmpty { _ = endLine() }
        return endLine()
    }

    /// Ends the current line; an empty line ends the event.
    private mutating func endLine() -> String? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            guard !data.isEmpty else { return nil }
            defer { data.removeAll() }
            return data.joined(separator: "\n")
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("data:") else { return nil }
        let value = text.dropFirst(5)
        data.append(String(value.hasPrefix(" ") ? value.dropFirst() : value))
        return nil
    }
}
