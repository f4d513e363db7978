// Fuzz target: the HTML text extractor. On any input it ends (libFuzzer's timeout catches a
// pattern that backtracks), returns trimmed text and a title without markup; text without
// markup or entities keeps every word, wrapped in a paragraph or not, while a script holding
// the same words adds none; a title made of it reads back. FuzzDriver runs it under libFuzzer
// (scripts/fuzz.sh) or replays files given as arguments.
import Foundation
import FuzzDriver
import SearchIndex

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let html = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let page = FileTextExtractor.stripHTML(html)
    check(page.text == page.text.trimmingCharacters(in: .whitespacesAndNewlines), "the text is not trimmed", html)
    check(page.title?.contains("<") != true, "the title holds markup", html)

    let plain = String(html.unicodeScalars.filter { !"<>&".unicodeScalars.contains($0) })
    let wrapped = FileTextExtractor.stripHTML("<p>" + plain + "</p>\n<script>" + plain + "</script><style>" + plain + "</style>")
    check(words(FileTextExtractor.stripHTML(plain).text) == words(plain), "plain text lost or gained words", plain)
    check(words(wrapped.text) == words(plain), "a paragraph lost words or a script added some", plain)
    let titled = FileTextExtractor.stripHTML("<html><title>" + plain + "</title></html>")
    let title = plain.trimmingCharacters(in: .whitespacesAndNewlines)
    check(titled.title == (title.isEmpty ? nil : title), "the title did not read back", plain)
    return 0
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
