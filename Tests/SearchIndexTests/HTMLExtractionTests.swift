import Foundation
import Testing
@testable import SearchIndex

/// HTML files as FileSource indexes them: each fixture page is copied into a real folder,
/// refreshed into a real index, and read back as the item's title and text. The expectations
/// are the pages' own (`HTMLFixture`), written with them.
@Suite struct HTMLExtractionTests {
    /// The title and text FileSource stores for an HTML file holding `bytes`.
    static func indexed(_ bytes: Data, name: String = "page.html") async throws -> (title: String?, text: String) {
        let folder = try TemporaryFolder()
        let scope = folder.url.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: scope, withIntermediateDirectories: true)
        let file = scope.appendingPathComponent(name)
        try bytes.write(to: file)
        let index = try folder.index()
        let report = try await FileSource(scopes: [scope]).refresh(into: index)
        #expect(report.indexed == 1, "\(report.skipped)")
        let item = try #require(try await index.fetchItems(identifiers: [file.path]).first)
        return (item.attributeSet.title, item.attributeSet.textContent ?? "")
    }

    static func indexed(_ fixture: HTMLFixture) async throws -> (title: String?, text: String) {
        try await indexed(try Data(contentsOf: fixture.url), name: fixture.file)
    }

    @Test(arguments: HTMLFixture.all)
    func runningTextIsKeptAndChromeLeftOut(_ fixture: HTMLFixture) async throws {
        let page = try await Self.indexed(fixture)
        for text in fixture.runningText {
            #expect(page.text.contains(text), "running text lost: \(text)")
        }
        for chrome in fixture.chrome {
            #expect(!page.text.contains(chrome), "chrome in the text: \(chrome)")
        }
    }

    @Test(arguments: HTMLFixture.all)
    func titleIsTheItemsTitleAndNotText(_ fixture: HTMLFixture) async throws {
        let page = try await Self.indexed(fixture)
        #expect(page.title == fixture.title)
        #expect(!page.text.contains(fixture.title))
    }

    @Test(arguments: HTMLFixture.all)
    func headingsListItemsAndRowsAreLinesOfTheirOwn(_ fixture: HTMLFixture) async throws {
        let lines = Set(try await Self.indexed(fixture).text.components(separatedBy: "\n"))
        for line in fixture.lines {
            #expect(lines.contains(line), "not a line of the text: \(line)")
        }
    }

    @Test(arguments: HTMLFixture.all)
    func sentencesWrappedInTheSourceAreOneLine(_ fixture: HTMLFixture) async throws {
        let lines = try await Self.indexed(fixture).text.components(separatedBy: "\n")
        for sentence in fixture.wrappedSentences {
            #expect(lines.contains { $0.contains(sentence) }, "not on one line: \(sentence)")
        }
    }

    @Test func codeBlocksStayWholeAndFenced() async throws {
        let book = try await Self.indexed(HTMLFixture.named("book-chapter.html")).text
        #expect(book.contains("""
            ```kestrel
            fn report(readings: Count) {
                let samples = Buffer.with(capacity: readings)

                for index in 0..readings {
                    samples.push(sensor.read(index))
                }
                print_all(view: samples.view())
            }   // samples is released here
            ```
            """))
        let api = try await Self.indexed(HTMLFixture.named("api-reference.html")).text
        #expect(api.contains("""
            ```
            pub struct Reservoir {
                pub label: String,
                /* private fields */
            }
            ```
            """))
        #expect(api.contains("""
            ```
            let mut tank = Reservoir::with_capacity(500);
            assert_eq!(tank.fill(320), Ok(320));
            assert_eq!(tank.fill(300), Err(Overflow(120)));
            ```
            """))
    }

    @Test func paragraphsAreSeparatedByABlankLineAndListItemsAreNot() async throws {
        let text = try await Self.indexed(HTMLFixture.named("blog-post.html")).text
        #expect(text.contains("""
            ## The cleft graft

            1. Saw the limb off square, a hand's width above a healthy branch.
            2. Split the stub with a grafting knife and hold the split open with a wedge.
            """))
        #expect(text.contains("strongest limbs.\n\n## Choosing scion wood\n\nScion wood is cut"))
    }

    @Test func aBlockOfWhitespaceAloneWritesNothing() async throws {
        // An em space or an ideographic space is whitespace, though the writer keeps it as text
        // inside a line: a heading, paragraph, list item or <pre> of them alone is no block.
        let page = HTMLTextExtractor.extract(Data(
            "<h2>\u{2005}</h2><p>\u{3000} \u{2003}</p><ul><li>\u{2005}</li></ul><p>The pier</p><pre>\u{2005}\n\u{3000}</pre><h3>\u{3000}</h3>".utf8))
        #expect(page.text == "The pier")
    }

    @Test func everyEntityIsDecoded() async throws {
        let page = try await Self.indexed(HTMLFixture.named("entities.html"))
        for raw in ["&rsquo;", "&#8217;", "&#8212;", "&#x2014;", "&#x2019;", "&eacute;", "&egrave;", "&amp;", "&frac12;", "&deg;", "&lt;", "&nbsp;", "\u{A0}"] {
            #expect(!page.text.contains(raw), "left as it was: \(raw)")
        }
        #expect(page.text.contains("The caf\u{E9} beside the pier"))
    }

    @Test func aPageDeclaredISO88591IsDecodedAsWindows1252() async throws {
        let bytes = try Data(contentsOf: HTMLFixture.named("latin1.html").url)
        #expect(String(data: bytes, encoding: .utf8) == nil, "the fixture must not be UTF-8")
        let page = try await Self.indexed(bytes)
        #expect(page.title == "Crème brûlée à l'ancienne - Les recettes de Mamie Odile")
        #expect(page.text.contains("cinq jaunes d'œuf"), "0x9C is œ in windows-1252, which ISO-8859-1 labels mean")
        #expect(!page.text.contains("\u{FFFD}"))

        // A byte windows-1252 leaves undefined is one U+FFFD; the text after it is still read.
        var undefined = Data("<html><head><meta charset=\"windows-1252\"></head><body><p>caf".utf8)
        undefined.append(contentsOf: [0xE9, 0x20, 0x81])
        undefined.append(Data(" after the byte</p><p>next paragraph</p></body></html>".utf8))
        #expect(try await Self.indexed(undefined).text == "caf\u{E9} \u{FFFD} after the byte\n\nnext paragraph")
    }

    @Test func aPageWithoutADeclarationIsUTF8AndInvalidBytesBecomeReplacementCharacters() async throws {
        var bytes = Data("<html><body><p>Caf\u{E9} and caf&#233; ".utf8)
        bytes.append(contentsOf: [0xFF, 0xFE])
        bytes.append(Data(" na\u{EF}ve</p></body></html>".utf8))
        let page = try await Self.indexed(bytes)
        #expect(page.text == "Caf\u{E9} and caf\u{E9} \u{FFFD}\u{FFFD} na\u{EF}ve")
    }

    @Test func hiddenElementsSkipLinksAndLandmarkRolesAreLeftOut() async throws {
        let html = """
            <html><head><title>Hidden things</title></head><body>
            <a href="#main">Skip to main content</a>
            <div role="navigation"><a href="/">navigationword</a></div>
            <div role="banner">bannerword</div>
            <main id="main">
            <h1>Visible heading <a class="anchor" href="#h">¶</a></h1>
            <p>Shown paragraph with enough words to be the page's running text for sure.</p>
            <h2 id="skip-lists"><a href="#skip-lists">Skip lists</a></h2>
            <p hidden>hiddenattributeword</p>
            <div aria-hidden="true">ariahiddenword</div>
            <p style="display: none">displaynoneword</p>
            <template><p>templateword</p></template>
            <select><option>selectword</option></select>
            <div role="search">searchroleword</div>
            </main>
            <div role="contentinfo">contentinfoword</div>
            </body></html>
            """
        let page = try await Self.indexed(Data(html.utf8))
        #expect(page.text == "# Visible heading\n\nShown paragraph with enough words to be the page's running text for sure.\n\n## Skip lists")
    }
}
