import Foundation
import SearchIndex
import Sentences

/// The html section: HTML-to-text extraction time per MB, libxml2's parser with the main
/// content finder (`HTMLTextExtractor`, what FileSource runs) against the regular expressions
/// it replaced (`RegexHTMLReference`, timed in the same run), over the hand-written fixture
/// pages in Tests/SearchIndexTests/Fixtures/html repeated to about 10 MB (a folder of pages),
/// and over one page at FileSource's per-file cap (4 MiB) holding a long chapter; and what a
/// reader gets from those pages against what Fixtures/html/pages.json says a reader sees there
/// (the suite's expectations): page chrome in the text, the title, sentences the source wraps.
enum HTMLExtractionBenchmark {
    /// What pages.json says of a page (the fields this section reads).
    private struct PageExpectations: Decodable {
        var file: String
        var title: String
        var wrappedSentences: [String]
        var chrome: [String]
    }

    static var fixtureFolder: URL { packageRoot.appendingPathComponent("Tests/SearchIndexTests/Fixtures/html") }

    static func run(quick: Bool) throws -> SectionReport {
        let files = try FileManager.default.contentsOfDirectory(at: fixtureFolder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "html" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        let fixtures = try files.map { try Data(contentsOf: $0) }
        guard !fixtures.isEmpty else {
            throw IndexBenchmark.Failure(description: "no fixture pages in \(fixtureFolder.path)")
        }
        let targetBytes = quick ? 2 << 20 : 10 << 20
        var folder: [Data] = []
        var folderBytes = 0
        while folderBytes < targetBytes {
            let page = fixtures[folder.count % fixtures.count]
            folder.append(page)
            folderBytes += page.count
        }
        let bigPage = longChapter(bytes: 4 << 20)
        let runs = quick ? 3 : 5

        func millisecondsPerMB(_ pages: [Data], _ bytes: Int, _ extract: (Data) -> (text: String, title: String?)) -> [Double] {
            (0..<runs).map { _ in
                let start = ContinuousClock.now
                var kept = 0
                for page in pages { kept &+= extract(page).text.utf8.count }
                precondition(kept >= 0)
                return (ContinuousClock.now - start).seconds * 1_000 / (Double(bytes) / 1_048_576)
            }
        }
        // Alternating sides per measurement would mix caches; each side runs its repetitions in turn.
        let oursFolder = millisecondsPerMB(folder, folderBytes, HTMLTextExtractor.extract)
        let theirsFolder = millisecondsPerMB(folder, folderBytes, RegexHTMLReference.extract)
        let oursBig = millisecondsPerMB([bigPage], bigPage.count, HTMLTextExtractor.extract)
        let theirsBig = millisecondsPerMB([bigPage], bigPage.count, RegexHTMLReference.extract)

        let pages = try JSONDecoder().decode([PageExpectations].self, from: Data(contentsOf: fixtureFolder.appendingPathComponent("pages.json")))
        let oursRead = try readingRows(pages, extract: HTMLTextExtractor.extract)
        let theirsRead = try readingRows(pages, extract: RegexHTMLReference.extract)

        func row(_ metric: String, _ ours: [Double], _ theirs: [Double], _ note: String) -> BenchmarkRow {
            BenchmarkRow(metric: metric, ours: IndexBenchmark.percentile(ours, 0.5), reference: IndexBenchmark.percentile(theirs, 0.5),
                         unit: "ms/MB", goal: 1, higherIsBetter: false,
                         spread: String(format: "ours %.1f–%.1f, reference %.1f–%.1f", ours.min() ?? 0, ours.max() ?? 0, theirs.min() ?? 0, theirs.max() ?? 0),
                         note: note)
        }
        return SectionReport(
            name: "html",
            title: "HTML extraction: libxml2 and the main content against the regular expressions it replaced",
            reference: "the regular-expression stripHTML FileTextExtractor used before (RegexHTMLReference, a labelled copy), same pages, same run",
            rows: [
                row("fixture pages (\(fixtures.count) kinds, \(folder.count) pages, \(folderBytes / 1_048_576) MB)", oursFolder, theirsFolder,
                    "median of \(runs) runs over the folder; bytes in, text and title out"),
                row("one page at the 4 MiB cap", oursBig, theirsBig, "a chapter page whose <main> holds sections of paragraphs, lists and code; median of \(runs) runs"),
                BenchmarkRow(metric: "page chrome in the text (\(pages.count) pages)", ours: oursRead.chrome, reference: nil, unit: "%", goal: 0,
                             higherIsBetter: false, spread: String(format: "regular expressions: %.1f %%", theirsRead.chrome),
                             note: "bytes of the pages' chrome strings (menus, theme pickers, search, footers, banners) in the text, as a share of the text"),
                BenchmarkRow(metric: "titles as the page's <title>", ours: oursRead.titles, reference: nil, unit: "%", goal: 100, higherIsBetter: true,
                             spread: String(format: "regular expressions: %.0f %%", theirsRead.titles), note: "the item's title, trimmed, equal to the page's"),
                BenchmarkRow(metric: "wrapped sentences read whole", ours: oursRead.wholeSentences, reference: nil, unit: "%", goal: 100, higherIsBetter: true,
                             spread: String(format: "regular expressions: %.0f %%", theirsRead.wholeSentences),
                             note: "sentences the HTML source wraps across lines, each one of SentenceSplitter's sentences of the text"),
            ],
            notes: [
                "Ours: HTMLTextExtractor.extract — charset prescan, libxml2's HTML parser, a copy of its tree, the chrome filter, the main content finder and the text writer. Reference: String(decoding:as: UTF8) and the old regular expressions (comments, scripts, styles, tags, six entities, whitespace).",
            ])
    }

    /// Over `pages`: the share of the text that is chrome, of titles read right, and of the
    /// sentences the sources wrap that are read whole, each in percent.
    private static func readingRows(_ pages: [PageExpectations], extract: (Data) -> (text: String, title: String?)) throws
        -> (chrome: Double, titles: Double, wholeSentences: Double) {
        var chromeBytes = 0, textBytes = 0, titles = 0, whole = 0, wrapped = 0
        for page in pages {
            let read = extract(try Data(contentsOf: fixtureFolder.appendingPathComponent(page.file)))
            textBytes += read.text.utf8.count
            chromeBytes += page.chrome.reduce(0) { $0 + (read.text.components(separatedBy: $1).count - 1) * $1.utf8.count }
            if read.title == page.title { titles += 1 }
            let sentences = Set(SentenceSplitter.sentences(in: read.text))
            whole += page.wrappedSentences.filter(sentences.contains).count
            wrapped += page.wrappedSentences.count
        }
        return (Double(chromeBytes) / Double(max(textBytes, 1)) * 100, Double(titles) / Double(max(pages.count, 1)) * 100,
                Double(whole) / Double(max(wrapped, 1)) * 100)
    }

    /// A book-chapter page of about `bytes` bytes: a sidebar, then a <main> of sections.
    static func longChapter(bytes: Int) -> Data {
        var html = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>A long chapter - Bench Book</title></head><body>
            <nav class="sidebar"><ol><li><a href="a.html">First chapter</a></li><li><a href="b.html">Second chapter</a></li></ol></nav>
            <main><h1>A long chapter</h1>

            """
        var section = 0
        while html.utf8.count < bytes - 2_000 {
            section += 1
            html += """
                <h2 id="s\(section)">Section \(section)</h2>
                <p>Paragraph \(section) explains how a buffer&rsquo;s scope ends, wrapped across
                source lines as generators write it, with <code>inline code</code>, a
                <a href="#s\(section)">link</a> and an entity &#8212; then the sentence ends.</p>
                <ul><li>First point of section \(section).</li><li>Second point, a little longer than the first.</li></ul>
                <pre><code class="language-kestrel">let value\(section) = Buffer.with(capacity: \(section))
                print(value\(section).count)
                </code></pre>

                """
        }
        html += "</main><footer>Bench Book footer</footer></body></html>\n"
        return Data(html.utf8)
    }
}
