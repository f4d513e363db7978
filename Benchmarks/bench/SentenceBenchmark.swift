import Foundation
import SearchIndex
import Sentences

/// The sentences section: how many of the sentences Lantern reads in a document are whole — the
/// units quote candidates, passage cuts, snippets and the vectors of search by meaning share
/// (`SentenceSplitter` over each passage the index holds, as fetch shows it to the model). Over
/// the shipped long documents (PDFs through `pdftotext`, Markdown) and two fixtures made by the
/// same generator for this (a PDF set in two columns, Markdown hard-wrapped at 72 columns). The
/// reference is what scripts/make-long-documents.py wrote into each document (`--units`: every
/// sentence, heading, contents line and page footer), so a sentence read whole is one of them;
/// a sentence cut in two, or two glued together, is none.
enum SentenceBenchmark {
    /// One document as the generator wrote it.
    private struct WrittenDocument: Decodable {
        var file: String
        var units: [String]
    }

    static func run(workDirectory: URL) async throws -> SectionReport {
        let repository = packageRoot
        let documents = try writtenDocuments(repository: repository)
        let folder = workDirectory.appendingPathComponent("documents")
        try? FileManager.default.removeItem(at: workDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for document in documents {
            let source = repository.appendingPathComponent(document.file)
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(source.lastPathComponent))
        }
        let index = try SearchableIndex(url: workDirectory.appendingPathComponent("sentences.sqlite"))
        _ = try await FileSource(scopes: [folder]).refresh(into: index)

        var rows: [BenchmarkRow] = []
        var notes: [String] = []
        var whole = 0, read = 0, textBytes = 0
        var splitting = Duration.zero
        for document in documents {
            let name = URL(fileURLWithPath: document.file).lastPathComponent
            let identifier = folder.appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL.path
            let texts = try await passageTexts(of: identifier, in: index)
            guard !texts.isEmpty else { throw IndexBenchmark.Failure(description: "\(name): the index holds no passage of it") }
            let start = ContinuousClock.now
            let sentences = texts.flatMap(SentenceSplitter.sentences(in:))
            splitting += ContinuousClock.now - start
            textBytes += texts.reduce(0) { $0 + $1.utf8.count }
            let written = Set(document.units.map { VerbatimText.normalized($0) })
            let cut = sentences.filter { !written.contains(withoutBlockMarker($0)) }
            whole += sentences.count - cut.count
            read += sentences.count
            rows.append(BenchmarkRow(metric: "whole sentences, \(name)", ours: share(sentences.count - cut.count, of: sentences.count),
                                     reference: nil, unit: "%", goal: 95, higherIsBetter: true,
                                     spread: "\(sentences.count - cut.count) of \(sentences.count) sentences read",
                                     note: "\(texts.count) passages"))
            if !cut.isEmpty {
                notes.append("\(name): \(cut.count) not whole, for example " + cut.prefix(3).map { "“\($0.prefix(200))”" }.joined(separator: "; "))
            }
        }
        rows.insert(BenchmarkRow(metric: "whole sentences, all \(documents.count) documents", ours: share(whole, of: read), reference: nil,
                                 unit: "%", goal: 95, higherIsBetter: true, spread: "\(whole) of \(read) sentences read",
                                 note: "the issue's goal: at least 95%"), at: 0)
        rows.append(BenchmarkRow(metric: "sentence splitting", ours: Double(textBytes) / 1_048_576 / max(splitting.seconds, 1e-9), reference: nil,
                                 unit: "MB/s", goal: nil, higherIsBetter: true, spread: nil,
                                 note: "SentenceSplitter.sentences over every passage above, \(textBytes / 1_024) KB; one pass"))
        return SectionReport(
            name: "sentences",
            title: "Sentences as a person reads them: whole sentences over long documents, a two-column PDF and hard-wrapped Markdown",
            reference: "the sentences, headings and lines scripts/make-long-documents.py wrote into each document (--units)",
            rows: rows,
            notes: ["A sentence read is whole when, its whitespace read as one space and a Markdown heading's or list item's marker left aside, it is one of the sentences, headings, contents lines or page footers the generator wrote. Sentences are read from the index's passages (FileSource, pdftotext for PDFs), as fetch shows them and quote mode offers them."] + notes)
    }

    /// The documents and their units, from the generator itself (`--units`), so the reference
    /// cannot drift from the files.
    private static func writtenDocuments(repository: URL) throws -> [WrittenDocument] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [repository.appendingPathComponent("scripts/make-long-documents.py").path, "--units"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw IndexBenchmark.Failure(description: "scripts/make-long-documents.py --units exited \(process.terminationStatus)")
        }
        return try data.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(WrittenDocument.self, from: Data($0)) }
    }

    /// Every passage's text of an item, in order.
    private static func passageTexts(of identifier: String, in index: SearchableIndex) async throws -> [String] {
        guard let first = try await index.passage(of: identifier, at: .passage(0)) else { return [] }
        var texts = [first.text]
        for number in 1..<max(1, first.count) {
            guard let passage = try await index.passage(of: identifier, at: .passage(number)) else { break }
            texts.append(passage.text)
        }
        return texts
    }

    /// A sentence without a Markdown heading's `#`s or a list item's `- ` in front.
    private static func withoutBlockMarker(_ sentence: String) -> String {
        if sentence.hasPrefix("- ") { return String(sentence.dropFirst(2)) }
        let hashes = sentence.prefix { $0 == "#" }
        return !hashes.isEmpty && sentence.dropFirst(hashes.count).first == " " ? String(sentence.dropFirst(hashes.count + 1)) : sentence
    }

    private static func share(_ part: Int, of whole: Int) -> Double {
        whole == 0 ? 0 : Double(part) / Double(whole) * 100
    }
}
