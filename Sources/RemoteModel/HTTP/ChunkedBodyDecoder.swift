import Foundation

/// Undoes `Transfer-Encoding: chunked` as the bytes arrive, so a streamed answer (server-sent
/// events) can be read chunk by chunk instead of after the server closes the connection.
struct ChunkedBodyDecoder {
    private enum State {
        /// Reading a chunk's size line (hex digits, optional `;extensions`, CRLF).
        case sizeLine
        /// Inside a chunk's data, with this many bytes to go.
        case data(remaining: Int)
        /// The CRLF after a chunk's data.
        case dataEnd
        /// The trailer section after the last (zero-size) chunk, up to its empty line.
        case trailer
        case complete
    }

    private var state = State.sizeLine
    private var line: [UInt8] = []

    /// Whether the last chunk and the trailer have been read.
    var isComplete: Bool { if case .complete = state { true } else { false } }

    /// The body bytes in `bytes`; throws on a malformed size line.
    mutating func decode(_ bytes: some Collection<UInt8>) throws(HTTPFailure) -> [UInt8] {
        var output: [UInt8] = []
        var index = bytes.startIndex
        while index != bytes.endIndex {
            switch state {
            case .complete:
                return output
            case .data(let remaining):
                let end = bytes.index(index, offsetBy: remaining, limitedBy: bytes.endIndex) ?? bytes.endIndex
                output.append(contentsOf: bytes[index..<end])
                let left = remaining - bytes.distance(from: index, to: end)
                state = left == 0 ? .dataEnd : .data(remaining: left)
                index = end
            case .sizeLine, .dataEnd, .trailer:
                let byte = bytes[index]
                index = bytes.index(after: index)
                guard byte == UInt8(ascii: "\n") else {
                    if byte != UInt8(ascii: "\r") { line.append(byte) }
                    guard line.count <= 1024 else { throw .connectionLost("an HTTP chunk line longer than 1 KiB") }
                    continue
                }
                let text = String(decoding: line, as: UTF8.self)
                line.removeAll(keepingCapacity: true)
                try endLine(text)
            }
        }
        return output
    }

    private mutating func endLine(_ text: String) throws(HTTPFailure) {
        switch state {
        case .sizeLine:
            let digits = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard let size = Int(digits.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw .connectionLost("malformed HTTP chunk size \"\(text.prefix(40))\"")
            }
            state = size == 0 ? .trailer : .data(remaining: size)
        case .dataEnd:
            guard text.isEmpty else { throw .connectionLost("an HTTP chunk longer than its size") }
            state = .sizeLine
        case .trailer:
            if text.isEmpty { state = .complete }
        case .data, .complete:
            break
        }
    }
}
