import Foundation

/// The words of a question a query may use. For search terms: lower-cased, without stop words
/// and question words, with a singular form beside each plural (`trails` → `trail`), in
/// question order. For custom stages' string arguments: words and short phrases as written.
enum QuestionVocabulary {
    static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "with", "by", "from", "about", "is", "are", "was",
        "were", "be", "been", "do", "does", "did", "have", "has", "had", "i", "me", "my", "we", "our", "you", "your", "it", "its",
        "this", "that", "these", "those", "what", "which", "who", "whom", "when", "where", "why", "how", "any", "some", "all",
        "many", "much", "there", "their", "can", "could", "would", "should", "will", "find", "show", "list", "tell", "give",
        "please", "search", "me", "than", "more", "most", "less", "not", "no", "as", "into", "over", "under",
    ]

    static func words(in question: String, limit: Int = 40) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for token in question.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }) {
            let word = String(token)
            guard word.count >= 2, word.count <= QueryLanguage.maximumTermLength, !stopWords.contains(word) else { continue }
            for form in [word] + [singular(of: word)].compactMap({ $0 }) where seen.insert(form).inserted { result.append(form) }
        }
        return Array(result.prefix(limit))
    }

    /// The singular beside a plural of more than three letters (`trails` → `trail`, not
    /// `glass` → `glas`); nil for a word that is not one.
    static func singular(of word: String) -> String? {
        word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") ? String(word.dropLast()) : nil
    }

    /// The words that name the kind of thing a question asks for, not what it says of it: the
    /// word after "which", "what" or "how many" ("trails" in "Which trails have water
    /// features?"), with its singular form. A sentence that holds only these ("Ryan Mountain
    /// Trail") is no evidence for the answer.
    static func answerTypeWords(in question: String) -> Set<String> {
        Set(answerTypeWordsAsWritten(in: question).flatMap { [$0] + [singular(of: $0)].compactMap { $0 } })
    }

    /// Whether the question asks which things, several of them ("Which trails…", "What hikes…"):
    /// a plural names what it asks for. "On which trip…" asks for one.
    static func asksForSeveral(_ question: String) -> Bool {
        answerTypeWordsAsWritten(in: question).contains { singular(of: $0) != nil }
    }

    private static func answerTypeWordsAsWritten(in question: String) -> [String] {
        let tokens = question.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        return tokens.indices.dropLast().compactMap { position in
            let token = tokens[position]
            let isAsking = token == "which" || token == "what" || (token == "many" && position > 0 && tokens[position - 1] == "how")
            return isAsking && !stopWords.contains(tokens[position + 1]) ? tokens[position + 1] : nil
        }
    }

    /// What a custom stage's free string arguments may be (`StageArgumentSchema`): the
    /// question's words as written (stop words and `excluded` ones, such as the stages' names
    /// and their parts, dropped), then the two- and three-word phrases they form where no stop
    /// word or punctuation parts them ("Eagle Falls"); each once, case-insensitively, at most
    /// `limit` (two thirds words, the rest phrases, when there are more).
    static func phrases(in question: String, excluding excluded: Set<String> = [], limit: Int = 48) -> [String] {
        var runs: [[String]] = [[]]
        for raw in question.split(whereSeparator: \.isWhitespace) {
            let token = raw.trimmingCharacters(in: .punctuationCharacters.union(.symbols))
            let lowered = token.lowercased()
            if token.isEmpty || token.unicodeScalars.count > QueryLanguage.maximumValueLength || stopWords.contains(lowered)
                || excluded.contains(lowered) || !token.contains(where: { $0.isLetter || $0.isNumber }) {
                if !runs[runs.count - 1].isEmpty { runs.append([]) }
                continue
            }
            runs[runs.count - 1].append(token)
            if raw.last.map({ $0.isPunctuation }) == true { runs.append([]) }
        }
        var phrases: [String] = []
        for run in runs {
            for length in 2...3 where run.count >= length {
                for start in 0...(run.count - length) { phrases.append(run[start..<(start + length)].joined(separator: " ")) }
            }
        }
        var seen = Set<String>()
        let words = runs.joined().filter { seen.insert($0.lowercased()).inserted }
        let joined = phrases.filter { $0.unicodeScalars.count <= QueryLanguage.maximumValueLength && seen.insert($0.lowercased()).inserted }
        let wordShare = min(words.count, limit * 2 / 3)
        return Array(words.prefix(wordShare) + joined.prefix(limit - wordShare))
    }
}
