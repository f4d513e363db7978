import CFullText
import CSQLite

/// The index's tokenizer ("lantern": porter over unicode61, diacritics removed) opened once on a
/// connection, reading texts as FTS5 reads a query. Owns the `LanternTokenizer*` and closes it.
/// Not `Sendable`: it lives with its connection.
final class TextTokenizer {
    private let pointer: OpaquePointer

    /// Nil when the connection has no "lantern" tokenizer registered.
    init?(_ database: OpaquePointer) {
        guard let pointer = lantern_tokenizer_open(database) else { return nil }
        self.pointer = pointer
    }

    deinit { lantern_tokenizer_close(pointer) }

    /// Every token of `text` with the UTF-8 byte range of its source; empty when the tokenizer fails.
    func tokens(of text: String) -> [TextToken] {
        final class Collector { var tokens: [TextToken] = [] }
        let collector = Collector()
        var bytes = Array(text.utf8)
        let visit: lantern_token_visitor = { context, token, length, start, end in
            guard let context, let token else { return 0 }
            let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
            let stem = String(decoding: UnsafeRawBufferPointer(start: token, count: Int(length)), as: UTF8.self)
            collector.tokens.append(TextToken(stem: stem, bytes: Int(start)..<Int(end)))
            return 0
        }
        let code = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                withExtendedLifetime(collector) {
                    lantern_tokenizer_run(pointer, text.baseAddress, Int32(text.count), visit, Unmanaged.passUnretained(collector).toOpaque())
                }
            }
        }
        return code == SQLITE_OK ? collector.tokens : []
    }
}
