import Foundation
import LocalModel
import Testing
@testable import VisionTools

/// Bad images and bad labels give typed errors that name the label, from both tools.
@Suite struct ImageErrorTests {
    /// Runs both tools on `attachment` and returns the two errors.
    private func errors(reading attachment: ImageAttachment, maximumPixels: Int = 25_000_000) async -> [VisionToolError?] {
        let ocr = await #expect(throws: VisionToolError.self) {
            _ = try await OCRTool(maximumImagePixels: maximumPixels).recognizeText(in: attachment)
        }
        let barcodes = #expect(throws: VisionToolError.self) {
            _ = try BarcodeReaderTool(maximumImagePixels: maximumPixels).readBarcodes(in: attachment)
        }
        return [ocr, barcodes]
    }

    @Test func aTruncatedPNGIsUnreadable() async throws {
        let images = try TestImages()
        let good = try images.qrCode("whole", named: "whole")
        let broken = images.url("broken.png")
        try Data(try Data(contentsOf: good.url).prefix(60)).write(to: broken)
        for error in await errors(reading: ImageAttachment(url: broken, label: "scan-3")) {
            guard case .unreadableImage(let label, let path, _) = error else {
                Issue.record("expected unreadableImage, got \(String(describing: error))")
                continue
            }
            #expect((label, path) == ("scan-3", broken.path))
            #expect(error?.description.contains("\"scan-3\"") == true)
        }
    }

    @Test func aTextFileIsAnUnsupportedFormat() async throws {
        let images = try TestImages()
        let file = images.url("notes.png")
        try Data("these are notes, not pixels\n".utf8).write(to: file)
        for error in await errors(reading: ImageAttachment(url: file, label: "notes")) {
            #expect(error == .unsupportedImageFormat(label: "notes", path: file.path))
        }
    }

    @Test func aMissingFileIsUnreadable() async throws {
        let images = try TestImages()
        let file = images.url("gone.png")
        for error in await errors(reading: ImageAttachment(url: file, label: "gone")) {
            #expect(error == .unreadableImage(label: "gone", path: file.path, reason: "there is no such file"))
        }
    }

    @Test func anImageOverThePixelCapIsRefused() async throws {
        let images = try TestImages()
        let image = try images.qrCode("big enough", named: "poster")
        let size = try TestImages.size(of: image)
        let cap = size.width * size.height - 1
        for error in await errors(reading: image, maximumPixels: cap) {
            #expect(error == .imageTooLarge(label: "poster", width: size.width, height: size.height, maximumPixels: cap))
        }
        // exactly at the cap is fine
        #expect(try BarcodeReaderTool(maximumImagePixels: cap + 1).readBarcodes(in: image).barcodes.map(\.payload) == ["big enough"])
    }

    @Test func anUnknownLabelListsTheLabelsThereAre() throws {
        let images = try TestImages()
        let prompt = Prompt("What does it say?", attachments: [ImageAttachment(url: images.url("a.png"), label: "receipt-1"),
                                                              ImageAttachment(url: images.url("b.png"), label: "receipt-2")])
        #expect(throws: VisionToolError.unknownImageLabel(label: "receipt-9", available: ["receipt-1", "receipt-2"])) {
            _ = try ImageArguments(image: "receipt-9").resolved(in: prompt)
        }
        #expect(try ImageArguments(image: "receipt-2").resolved(in: prompt).url == images.url("b.png"))
    }

    @Test func outsideASessionNoLabelIsKnown() async throws {
        await #expect(throws: VisionToolError.unknownImageLabel(label: "receipt-1", available: [])) {
            _ = try await OCRTool().call(arguments: ImageArguments(image: "receipt-1"))
        }
        await #expect(throws: VisionToolError.unknownImageLabel(label: "receipt-1", available: [])) {
            _ = try await BarcodeReaderTool().call(arguments: ImageArguments(image: "receipt-1"))
        }
    }

    @Test func theSchemaForAPromptAllowsOnlyItsLabels() async throws {
        let url = URL(fileURLWithPath: "/tmp/x.png")
        let prompt = Prompt("Read these", attachments: [ImageAttachment(url: url, label: "front"),
                                                       ImageAttachment(url: url, label: "back"),
                                                       ImageAttachment(url: url, label: "front")])
        for schema in [await OCRTool().parameters(for: prompt), await BarcodeReaderTool().parameters(for: prompt)] {
            guard case .object(let properties) = schema.kind, let image = properties.first(where: { $0.name == "image" }) else {
                Issue.record("expected an object with an image property, got \(schema)")
                continue
            }
            #expect(image.schema.kind == .enumeration(["front", "back"]))
            #expect(throws: (any Error).self) { try schema.validate(["image": "side"], rootName: "arguments") }
            try schema.validate(["image": "back"], rootName: "arguments")
        }
        #expect(await OCRTool().parameters(for: Prompt("no images")) == ImageArguments.generationSchema)
    }
}
