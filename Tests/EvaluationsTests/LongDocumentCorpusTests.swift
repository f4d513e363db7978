import Foundation
import Testing
import Evaluations

/// The shipped long-document corpus (Samples/long-documents, written by
/// scripts/make-long-documents.py) is checked against its samples with the real `pdftotext`:
/// every PDF has its page count, every fact is on the page or Markdown line, and under the heading
/// path, that its sample names. Passage coverage scores the model against these places, so a
/// sample that pointed at the wrong page would blame search for a miss it did not make.
@Suite("Long-document corpus")
struct LongDocumentCorpusTests {
    /// Where a sample says its fact is: a PDF page, or a Markdown heading path and 1-based line.
    struct Passage: Decodable {
        var file: String
        var page: Int?
        var heading: String?
        var line: Int?
    }

    /// The part of a samples line this suite reads beyond what `SampleReader` reads.
    struct PassageLine: Decodable {
        var id: String
        var expectedPassages: [Passage]
    }

    struct PDFTextFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Page counts the corpus was made with (the generator's PDFDocument.pages).
    static let pageCounts = ["trail-maintenance-handbook.pdf": 20, "field-station-logbook.pdf": 40,
                             "heating-service-manual.pdf": 100]
    static let samplesFolder = SampleData.trailsSamples.deletingLastPathComponent()
    static let folder = samplesFolder.appendingPathComponent("long-documents")
    static let samplesFile = samplesFolder.appendingPathComponent("long-documents-samples.jsonl")

    /// Each sample with its expected passages, read from the shipped file.
    static func samples() throws -> [(sample: EvaluationSample, passages: [Passage])] {
        let samples = try SampleReader().samples(contentsOf: samplesFile)
        let text = try String(contentsOf: samplesFile, encoding: .utf8)
        let lines = try text.split(separator: "\n").map { try JSONDecoder().decode(PassageLine.self, from: Data($0.utf8)) }
        let passages = Dictionary(uniqueKeysWithValues: lines.map { ($0.id, $0.expectedPassages) })
        return samples.map { ($0, passages[$0.id] ?? []) }
    }

    /// The text of each page of a PDF, from `pdftotext -enc UTF-8 FILE -`: pages end in a form
    /// feed, and runs of white space become one space so a fact wrapped over lines still matches.
    static func pages(of file: URL) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        process.arguments = ["-enc", "UTF-8", file.path, "-"]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw PDFTextFailure(description: "cannot run /usr/bin/pdftotext (scripts/setup.sh installs poppler-utils): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PDFTextFailure(description: "pdftotext failed on \(file.lastPathComponent) with status \(process.terminationStatus)")
        }
        let text = String(decoding: data, as: UTF8.self)
        var pages = text.components(separatedBy: "\u{0C}")
        #expect(pages.last?.allSatisfy(\.isWhitespace) == true, "\(file.lastPathComponent): text after the last page's form feed")
        pages.removeLast()
        return pages.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased() }
    }

    /// The `#` headings enclosing line `number` (1-based) of a Markdown file, outermost first.
    static func headingPath(of lines: [Substring], above number: Int) -> [String] {
        var path: [(level: Int, title: String)] = []
        for line in lines.prefix(number - 1) {
            let level = line.prefix { $0 == "#" }.count
            guard level > 0, line.dropFirst(level).first == " " else { continue }
            path.removeAll { $0.level >= level }
            path.append((level, String(line.dropFirst(level + 1))))
        }
        return path.map(\.title)
    }

    @Test func everyDocumentIsAskedAboutAndEverySampleNamesShippedFiles() throws {
        let samples = try Self.samples()
        #expect((10...14).contains(samples.count))
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        #expect(Set(files) == Set(samples.flatMap(\.sample.expectedIdentifiers)), "a document no sample asks about, or a sample naming a missing file")
        #expect(Set(files.filter { $0.hasSuffix(".pdf") }) == Set(Self.pageCounts.keys))
        for (sample, passages) in samples {
            #expect(!passages.isEmpty, "\(sample.id): no expectedPassages")
            #expect(Set(passages.map(\.file)) == Set(sample.expectedIdentifiers), "\(sample.id): passages and identifiers name different files")
            #expect(!sample.expectedFacts.isEmpty, "\(sample.id): no expectedFacts")
            for fact in sample.expectedFacts {
                #expect(!sample.prompt.lowercased().contains(fact.lowercased()), "\(sample.id): the prompt holds \(fact)")
            }
        }
    }

    @Test func pdfsHaveTheirPageCountsAndEachFactIsOnItsPage() throws {
        let samples = try Self.samples()
        var pagesByFile: [String: [String]] = [:]
        for (file, count) in Self.pageCounts {
            let pages = try Self.pages(of: Self.folder.appendingPathComponent(file))
            #expect(pages.count == count, "\(file): \(pages.count) pages")
            for (index, page) in pages.enumerated() {
                #expect(page.contains("page \(index + 1) of \(count)"), "\(file): page \(index + 1) lacks its footer, pages out of order")
            }
            pagesByFile[file] = pages
        }
        for (sample, passages) in samples {
            var found: Set<String> = []
            for passage in passages where passage.file.hasSuffix(".pdf") {
                let number = try #require(passage.page, "\(sample.id): a PDF passage without a page")
                let pages = try #require(pagesByFile[passage.file])
                try #require((1...pages.count).contains(number), "\(sample.id): page \(number) of \(pages.count)")
                let here = sample.expectedFacts.filter { pages[number - 1].contains($0.lowercased()) }
                guard !here.isEmpty else {
                    Issue.record("\(sample.id): page \(number) of \(passage.file) holds none of \(sample.expectedFacts)")
                    continue
                }
                // At least one fact is on this page only, so no other page could answer as well.
                let elsewhere = here.filter { fact in
                    pages.indices.contains { $0 != number - 1 && pages[$0].contains(fact.lowercased()) }
                }
                #expect(here.count > elsewhere.count, "\(sample.id): \(here) are also on other pages of \(passage.file)")
                found.formUnion(here)
            }
            if passages.allSatisfy({ $0.file.hasSuffix(".pdf") }) {
                #expect(found == Set(sample.expectedFacts), "\(sample.id): facts on none of its pages: \(Set(sample.expectedFacts).subtracting(found))")
            }
        }
    }

    @Test func eachMarkdownFactIsOnItsLineUnderItsHeadings() throws {
        let samples = try Self.samples()
        var checked = 0
        for (sample, passages) in samples {
            for passage in passages where passage.file.hasSuffix(".md") {
                let text = try String(contentsOf: Self.folder.appendingPathComponent(passage.file), encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                let number = try #require(passage.line, "\(sample.id): a Markdown passage without a line")
                let heading = try #require(passage.heading, "\(sample.id): a Markdown passage without a heading")
                try #require((1...lines.count).contains(number), "\(sample.id): line \(number) of \(lines.count)")
                let line = lines[number - 1].lowercased()
                #expect(!line.hasPrefix("#"), "\(sample.id): line \(number) is a heading")
                for fact in sample.expectedFacts {
                    #expect(line.contains(fact.lowercased()), "\(sample.id): line \(number) of \(passage.file) lacks \(fact)")
                }
                let path = Self.headingPath(of: lines, above: number)
                #expect(path.joined(separator: " > ") == heading, "\(sample.id): line \(number) is under \(path)")
                #expect(path.count == 3, "\(sample.id): not under a ### heading")
                let words = text.split(whereSeparator: \.isWhitespace).count
                #expect(words >= 8_000, "\(passage.file): \(words) words, not a long document")
                checked += 1
            }
        }
        #expect(checked >= 6)
    }
}
