#if canImport(Glibc)
import Glibc
#endif

/// Decodes a page's bytes from the encoding it declares to UTF-8 through glibc's iconv, before
/// libxml2 sees them: a byte iconv cannot decode becomes U+FFFD and decoding goes on after it,
/// as `String(decoding:as:)` does for UTF-8 (libxml2's own conversion stops the whole document
/// at the first such byte and prints to stderr). The iconv descriptor is opened and closed here.
enum CharsetDecoder {
    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// `bytes` in `encoding` as UTF-8, or nil when iconv does not know the encoding.
    static func utf8(from bytes: UnsafeRawBufferPointer, encoding: String) -> [UInt8]? {
        guard let descriptor = iconv_open("UTF-8", encoding), Int(bitPattern: descriptor) != -1 else { return nil }
        defer { iconv_close(descriptor) }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return [] }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 2)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self))
        var inputLeft = bytes.count
        /// One iconv call into `chunk`; its result, errno, and the bytes it wrote.
        func convert(_ flush: Bool) -> (result: Int, error: Int32, written: Int) {
            chunk.withUnsafeMutableBytes { space -> (Int, Int32, Int) in
                var out = space.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = space.count
                errno = 0
                let result = flush ? iconv(descriptor, nil, nil, &out, &outLeft) : iconv(descriptor, &input, &inputLeft, &out, &outLeft)
                return (result, errno, space.count - outLeft)
            }
        }
        while inputLeft > 0 {
            let step = convert(false)
            output += chunk[..<step.written]
            guard step.result == -1, step.error != E2BIG else { continue }
            // EILSEQ (a byte the encoding has no character for), EINVAL (a sequence cut by the
            // end), or anything else: one byte becomes U+FFFD and the shift state starts over.
            output += replacement
            input = input.map { $0 + 1 }
            inputLeft -= 1
            _ = iconv(descriptor, nil, nil, nil, nil)
        }
        let end = convert(true)
        output += chunk[..<end.written]
        return output
    }
}
