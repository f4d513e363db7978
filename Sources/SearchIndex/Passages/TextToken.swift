/// One word of a text as the index's tokenizer reads it: its stem (what FTS5 stores and
/// matches) and where its source lies in the text, as a range of UTF-8 byte offsets.
struct TextToken: Sendable, Hashable {
    var stem: String
    var bytes: Range<Int>
}
