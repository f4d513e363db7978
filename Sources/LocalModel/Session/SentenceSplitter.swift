import Foundation

/// Cuts retrieved text into the sentences quote mode offers: at line breaks, and after `.`, `!`
/// or `?` (and a closing quote or bracket) followed by a space and an upper-case letter or a
/// digit. "5.4 km" and "e.g. the" stay whole; "Mt. Tom" is cut, which costs a quote its
/// start, never its fidelity: every piece is verbatim text of the source.
enum SentenceSplitter {
    /// The sentences of `text`, trimmed, in order; fragments without a letter or digit and
    /// headers that end in `:` ("text:") are left out.
    static func sentences(in text: String) -> [String] {
        var sentences: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let characters = Array(line)
            var start = 0
            var index = 0
            while index < characters.count {
                if ".!?".contains(characters[index]) {
                    var end = index + 1
                    while end < characters.count, "\"'’”)]".contains(characters[end]) { end += 1 }
                    if end + 1 < characters.count, characters[end] == " ",
                       characters[end + 1].isUppercase || characters[end + 1].isNumber {
                        sentences.append(String(characters[start..<end]))
                        start = end + 1
                        index = start
                        continue
                    }
                }
                index += 1
            }
            if start < characters.count { sentences.append(String(characters[start...])) }
        }
        return sentences.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { sentence in sentence.contains { $0.isLetter || $0.isNumber } && !sentence.hasSuffix(":") }
    }
}
