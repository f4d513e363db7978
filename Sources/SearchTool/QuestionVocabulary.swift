import Foundation

/// The words of a question a search may use: lower-cased, without stop words and question
/// words, with a singular form beside each plural (`trails` → `trail`), in question order.
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
            var forms = [word]
            if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") { forms.append(String(word.dropLast())) }
            for form in forms where seen.insert(form).inserted { result.append(form) }
        }
        return Array(result.prefix(limit))
    }
}
