/// Keeps generated text from beginning with any of a few openings, whitespace aside: the
/// answer round's guard against an answer that is a call (`ToolCallSyntax.answerOpenings`).
///
/// While the output so far (whitespace dropped) is still the start of an opening, every token
/// whose text would complete one is masked before sampling; once the output can no longer
/// begin with one, the watch is done and costs nothing. Masking looks only at the tokens whose
/// text starts with the opening's next byte (`LlamaModelHandle.compactPieces`), so a masked
/// step costs well under a millisecond, and only the first one or two steps of an answer are
/// masked: prose decodes at the same speed with and without it.
struct ForbiddenOpenings {
    /// The openings, whitespace removed.
    private let openings: [[UInt8]]
    /// The output so far, whitespace removed, while it is a proper start of an opening.
    private var lead: [UInt8] = []
    /// Whether the output may still begin with an opening.
    private(set) var isWatching: Bool

    init(_ openings: [String]) {
        self.openings = openings.map { Array($0.utf8.filter { !Self.isWhitespace($0) }) }.filter { !$0.isEmpty }
        isWatching = !self.openings.isEmpty
    }

    /// The tokens that would make the output begin with an opening. `pieces` holds each
    /// token's text without whitespace, grouped by its first byte.
    func forbiddenTokens(_ pieces: [UInt8: [(token: Token, bytes: [UInt8])]]) -> [Token] {
        guard isWatching else { return [] }
        var forbidden: [Token] = []
        for opening in openings where opening.count > lead.count && opening.starts(with: lead) {
            let rest = opening[lead.count...]
            guard let first = rest.first else { continue }
            for piece in pieces[first] ?? [] where piece.bytes.starts(with: rest) {
                forbidden.append(piece.token)
            }
        }
        return forbidden
    }

    /// Adds a generated token's text.
    mutating func record(_ bytes: [UInt8]) {
        guard isWatching else { return }
        lead += bytes.filter { !Self.isWhitespace($0) }
        isWatching = openings.contains { $0.count > lead.count && $0.starts(with: lead) }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
}
