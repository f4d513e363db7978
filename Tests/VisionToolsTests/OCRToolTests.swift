import Foundation
import LocalModel
import Testing
@testable import VisionTools

@Suite struct OCRToolTests {
    @Test func readsARenderedSentenceWithItsWordsInOrder() async throws {
        let images = try TestImages()
        let sentence = "Lantern reads seven amber receipts quickly"
        let image = try images.text(sentence, named: "receipt-1")
        let result = try await OCRTool().recognizeText(in: image)

        #expect(words(result.text) == words(sentence))
        #expect(result.lines.count == 1)
        let line = try #require(result.lines.first)
        #expect(words(line.words.map(\.text).joined(separator: " ")) == words(sentence))
        // words run left to right inside their line, and the line lies inside the image
        #expect(line.words.map(\.bounds.x) == line.words.map(\.bounds.x).sorted())
        let size = try TestImages.size(of: image)
        #expect((result.width, result.height) == (size.width, size.height))
        #expect(line.bounds.x >= 0 && line.bounds.y >= 0 && line.bounds.x + line.bounds.width <= size.width
                && line.bounds.y + line.bounds.height <= size.height)
        #expect(line.confidence > 0.5 && line.confidence <= 1)
        // the compact form names the label and carries the text
        #expect(result.promptRepresentation.contains("\"receipt-1\""))
        #expect(result.promptRepresentation.contains(line.text))
    }

    @Test func linesComeInReadingOrder() async throws {
        let images = try TestImages()
        let rows = ["Coffee beans 12.50", "Oat milk 3.20", "Total 15.70"]
        let image = try images.text(rows.joined(separator: "\n"), named: "receipt-2")
        let result = try await OCRTool().recognizeText(in: image)

        #expect(result.lines.map { words($0.text) } == rows.map(words))
        #expect(result.lines.map(\.bounds.y) == result.lines.map(\.bounds.y).sorted())
    }

    @Test func structuredFormatIsJSONWithLinesAndWords() async throws {
        let images = try TestImages()
        let sentence = "Structured output keeps every word"
        let image = try images.text(sentence, named: "screen")
        let result = try await OCRTool(format: .structured).recognizeText(in: image)

        let json = try JSONValue(parsing: result.promptRepresentation)
        #expect(json["image"]?.stringValue == "screen")
        let firstLine = try #require(json["lines"]?[0])
        #expect(words(firstLine["text"]?.stringValue ?? "") == words(sentence))
        let wordTexts = (0..<words(sentence).count).compactMap { firstLine["words"]?[$0]?["text"]?.stringValue }
        #expect(words(wordTexts.joined(separator: " ")) == words(sentence))
        #expect(firstLine["bounds"]?["width"] != nil)
    }

    @Test func installedLanguagesMatchTesseractsOwnList() throws {
        let listed = try TestImages.run("tesseract", ["--list-langs"])
            .split(separator: "\n").dropFirst().map(String.init).filter { $0 != "osd" }
        #expect(OCRTool.installedLanguages == listed.sorted())
        #expect(OCRTool.installedLanguages.contains("eng"))
    }

    @Test func aMissingLanguagePackIsATypedErrorNamingTheLabel() async throws {
        let images = try TestImages()
        let image = try images.text("Hello", named: "menu")
        let error = await #expect(throws: VisionToolError.self) {
            _ = try await OCRTool(languages: ["eng", "qqq"]).recognizeText(in: image)
        }
        guard case .missingLanguagePack(let label, let language, let installed, _) = error else {
            Issue.record("expected missingLanguagePack, got \(String(describing: error))")
            return
        }
        #expect((label, language) == ("menu", "qqq"))
        #expect(installed == OCRTool.installedLanguages)
        #expect(error?.description.contains("tesseract-ocr-qqq") == true)
    }
}
