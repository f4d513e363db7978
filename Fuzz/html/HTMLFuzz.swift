// Fuzz target: the HTML text extractor (libxml2's HTML parser, the chrome filter, the main
// content finder and the text writer). On any bytes it ends, returns trimmed text and a title
// on one trimmed line. For text without markup or entities (less the characters XML does not
// allow, which libxml2 drops):
// - as a whole page, or in a paragraph beside a script, a style, a nav and a footer holding the
//   same words, the text has exactly its words;
// - in a heading it is one heading line; in a <pre> it is one fenced code block with its words;
// - as a title it reads back, whitespace collapsed.
// FuzzDriver runs it under libFuzzer (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import SearchIndex

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let page = HTMLTextExtractor.extract(bytes)
    let input = String(decoding: bytes, as: UTF8.self)
    check(page.text == page.text.trimmingCharacters(in: .whitespacesAndNewlines), "the text is not trimmed", input)
    if let title = page.title {
        check(!title.isEmpty && !title.contains("\n") && title == title.trimmingCharacters(in: .whitespacesAndNewlines),
              "the title is empty, untrimmed or more than one line", input)
    }

    let plain = String(String.UnicodeScalarView(input.unicodeScalars.filter(isPlain)))
    let expected = words(plain)
    check(words(extract(plain).text) == expected, "plain text lost or gained words", plain)
    let surrounded = extract("<html><head><style>\(plain)</style></head><body><nav>\(plain)</nav><p>\(plain)</p>"
        + "<script>\(plain)</script><footer>\(plain)</footer></body></html>")
    check(words(surrounded.text) == expected, "a paragraph lost words or chrome added some", plain)

    let heading = extract("<h2>\(plain)</h2>").text
    if expected.isEmpty {
        check(heading.isEmpty, "an empty heading wrote text", plain)
    } else {
        // By scalars: a joiner after the marker's space is one Character with it.
        let marker = "## ".unicodeScalars
        check(heading.unicodeScalars.starts(with: marker) && !heading.unicodeScalars.contains("\n")
              && words(String(String.UnicodeScalarView(heading.unicodeScalars.dropFirst(marker.count)))) == expected,
              "a heading is not one heading line with its words", plain)
    }

    let code = extract("<pre>\(plain)</pre>").text
    if expected.isEmpty {
        check(code.isEmpty, "an empty code block wrote text", plain)
    } else {
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        let fence = lines.first.map { $0.prefix { $0 == "`" } } ?? ""
        check(lines.count >= 3 && fence.count >= 3 && lines.last.map(String.init) == String(fence)
              && words(lines.dropFirst().dropLast().joined(separator: "\n")) == expected,
              "a <pre> is not one fenced block with its words", plain)
    }

    let titled = extract("<html><head><title>\(plain)</title></head></html>")
    check(titled.title == (expected.isEmpty ? nil : expected.joined(separator: " ")) || titled.title.map(words) == expected,
          "the title did not read back", plain)
    check(titled.text.isEmpty, "the title reached the text", plain)
    return 0
}

func extract(_ html: String) -> (text: String, title: String?) {
    HTMLTextExtractor.extract(Data(html.utf8))
}

/// A character that stays text in any element: not markup, not an entity's start, and allowed
/// in XML (libxml2 drops C0 controls other than tab, line feed and carriage return, and
/// U+FFFE and U+FFFF).
func isPlain(_ scalar: Unicode.Scalar) -> Bool {
    if "<>&".unicodeScalars.contains(scalar) { return false }
    if scalar.value < 0x20 { return scalar == "\t" || scalar == "\n" || scalar == "\r" }
    return scalar.value != 0xFFFE && scalar.value != 0xFFFF
}

/// The words of `text`, split at whitespace scalars (not Characters: a combining mark after a
/// space joins it into one Character, which would make the comparison depend on the spaces).
func words(_ text: String) -> [String] {
    text.unicodeScalars.split { $0.properties.isWhitespace }.map { String(String.UnicodeScalarView($0)) }
}

/// A property of the input, reported as a crash when broken.
func check(_ condition: Bool, _ message: @autoclosure () -> String, _ text: String) {
    FuzzDriver.require(condition, "HTML extractor", message(), text)
}

@main struct HTMLFuzz {
    static func main() { FuzzDriver.run(fuzz) }
}
