// Fuzz target: the sentence splitter every reader of text shares (SentenceSplitter: wrapped
// lines joined, ICU's sentence breaks with Lantern's corrections). On any text (the input's
// bytes as UTF-8, binary controls left out) it ends, and:
// - the sentence ranges lie in the text, in order, without overlap, each trimmed and not empty;
// - every sentence is its range's text with whitespace runs as one space, so it is verbatim
//   text (VerbatimText), which quote mode relies on;
// - the sentences hold all the text but its whitespace, in order, nothing added.
// FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import FuzzDriver
import Sentences

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let text = String(String.UnicodeScalarView(bytes.unicodeScalars.filter(isText)))
    let ranges = SentenceSplitter.sentenceRanges(in: text)
    var previousEnd = text.startIndex
    for range in ranges {
        check(range.lowerBound >= previousEnd && range.lowerBound < range.upperBound && range.upperBound <= text.endIndex,
              "a range is out of order, empty or outside the text", text)
        check(text[range].first.map(isSpace) == false && text[range].last.map(isSpace) == false, "a range is not trimmed", text)
        previousEnd = range.upperBound
    }
    let sentences = SentenceSplitter.sentences(in: text)
    check(sentences == ranges.map { VerbatimText.normalized(text[$0]) }, "a sentence is not its range's text", text)
    let normalized = VerbatimText.normalized(text)
    check(sentences.allSatisfy { VerbatimText.contains($0, inNormalized: normalized) }, "a sentence is not verbatim text", text)
    check(visible(sentences.joined()) == visible(text), "the sentences lost, gained or moved text", text)
    return 0
}

/// `text`'s scalars without whitespace: what must survive splitting, in order (a sentence may
/// end without a space, after "。"). By scalar, as a space before a combining mark is one
/// character with it, which one side may hold whole and the other split.
func visible(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { !Character($0).isWhitespace }))
}

/// Whitespace through and through (a space that a combining mark follows is one character with
/// it, and text).
func isSpace(_ character: Character) -> Bool {
    character.unicodeScalars.allSatisfy { Character($0).isWhitespace }
}

/// A scalar text holds: C0 controls other than tab, line feed, vertical tab, form feed and
/// carriage return are binary (the files source reads no file with NUL bytes as text).
func isText(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0x20 || (0x09...0x0D).contains(scalar.value)
}

/// A property of the input, reported as a crash when broken.
func check(_ condition: Bool, _ message: @autoclosure () -> String, _ text: String) {
    FuzzDriver.require(condition, "sentence splitter", message(), text)
}

@main struct SentenceFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
