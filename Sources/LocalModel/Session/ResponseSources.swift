import Sentences
/// The sources one response's tool outputs showed the model, in the order they were shown:
/// what its citation markers may name and its quotes are taken from.
///
/// A tool output contributes the sources its tool attached (`ToolResult.sources`). An output
/// with none (a count, an OCR tool's text, a tool that knows nothing of sources) is itself one
/// source, named after its tool (`spotlight_search`, then `spotlight_search-2`), whose text is
/// the output's text, so a quote of a count can be cited too. A source of kind `.result` (what a
/// tool computed, `4 items match.`) is named the same way. Error outputs and repeats show
/// nothing new. Two sources with one id (a search result, then the same item fetched) become
/// one whose text holds both, as paragraphs of their own.
struct ResponseSources: Sendable, Hashable {
    private(set) var sources: [CitableSource] = []

    init(_ entries: some Sequence<Transcript.Entry>) {
        var toolOutputs: [String: Int] = [:]
        func toolNamed(_ source: CitableSource, _ toolName: String) -> CitableSource {
            let count = toolOutputs[toolName, default: 0] + 1
            toolOutputs[toolName] = count
            var named = source
            named.id = count == 1 ? toolName : "\(toolName)-\(count)"
            return named
        }
        for case .toolOutput(let output) in entries where !output.isError && output.repeatedCallID == nil {
            if output.sources.isEmpty {
                add(toolNamed(CitableSource(id: output.toolName, text: output.text), output.toolName))
            } else {
                output.sources.forEach { add($0.kind == .result ? toolNamed($0, output.toolName) : $0) }
            }
        }
    }

    private mutating func add(_ source: CitableSource) {
        guard Citation.isCitable(source.id) else { return }
        if let index = sources.firstIndex(where: { $0.id == source.id }) {
            // a paragraph apart: a search result's cut snippet never runs on into the fetched text
            if !sources[index].text.contains(source.text) { sources[index].text += "\n\n" + source.text }
        } else {
            sources.append(source)
        }
    }

    var isEmpty: Bool { sources.isEmpty }
    var identifiers: [String] { sources.map(\.id) }

    /// Every sentence of every source with the source it came from, each pair once, in order;
    /// a tool's own result once whichever call showed it (two searches that match the same
    /// items say the same "2 items matched: …").
    /// Left out: a sentence with a bracket ("[text cut: 80 more characters left out]"), which in
    /// an answer would read as a citation marker, a fragment without a letter or digit, a
    /// header that ends in ":" ("text (passage 0 of 1):"), and the scrap a snippet's cut leaves
    /// ("It…"), none of which says anything on its own.
    var evidence: [Evidence] {
        var seen = Set<String>()
        return sources.flatMap { source in
            SentenceSplitter.sentences(in: source.text).compactMap { sentence in
                guard !sentence.contains(where: { $0 == "[" || $0 == "]" }), !sentence.hasSuffix(":"),
                      sentence.contains(where: { $0.isLetter || $0.isNumber }), !Self.isCutScrap(sentence) else { return nil }
                let key = (source.kind == .result ? "" : source.id) + "\u{0}" + sentence
                return seen.insert(key).inserted ? Evidence(sentence: sentence, sourceID: source.id, kind: source.kind, answersQuestion: source.answersQuestion) : nil
            }
        }
    }

    /// Whether `sentence` is what a snippet's cut left of one: "…" at an end and fewer than
    /// three words.
    static func isCutScrap(_ sentence: String) -> Bool {
        guard sentence.hasPrefix("…") || sentence.hasSuffix("…") else { return false }
        return sentence.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).count < 3
    }

    /// Every sentence of every source, each once, in order: what a quote field may hold
    /// (`GenerationSchema.quote`).
    var sentences: [String] {
        var seen = Set<String>()
        return evidence.map(\.sentence).filter { seen.insert($0).inserted }
    }
}
