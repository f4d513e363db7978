import Foundation
import LocalModel
import Testing
@testable import VisionTools

@Suite struct BarcodeReaderToolTests {
    @Test func decodesAQRCodeExactly() throws {
        let images = try TestImages()
        let payload = "https://lantern.example/parcel?id=\(UUID().uuidString)&note=\"fragile\""
        let image = try images.qrCode(payload, named: "parcel-7")
        let scan = try BarcodeReaderTool().readBarcodes(in: image)

        #expect(scan.barcodes.map(\.symbology) == [.qr])
        #expect(scan.barcodes.first?.payload == payload)
        let size = try TestImages.size(of: image)
        #expect((scan.width, scan.height) == (size.width, size.height))
        let bounds = try #require(scan.barcodes.first?.bounds)
        // qrencode leaves a 4-module quiet zone (6 px each) around the code
        #expect(bounds.x >= 20 && bounds.y >= 20 && bounds.x + bounds.width <= size.width - 20 && bounds.y + bounds.height <= size.height - 20)
        #expect(scan.promptRepresentation.contains(JSONValue.string(payload).jsonString))
        #expect(scan.promptRepresentation.contains("\"parcel-7\""))
    }

    @Test(arguments: [("5901234123457", "ean13", BarcodeSymbology.ean13), ("LANTERN-128/x", "128", .code128)])
    func decodesLinearCodesExactly(payload: String, encoding: String, symbology: BarcodeSymbology) throws {
        let images = try TestImages()
        let image = try images.barcode(payload, encoding: encoding, named: "code")
        let scan = try BarcodeReaderTool().readBarcodes(in: image)

        #expect(scan.barcodes.map(\.symbology) == [symbology])
        #expect(scan.barcodes.first?.payload == payload)
        #expect((scan.barcodes.first?.bounds.width ?? 0) > 0)
    }

    @Test func anImageWithoutCodesSaysSo() throws {
        let images = try TestImages()
        let image = try images.text("no codes here", named: "plain")
        let scan = try BarcodeReaderTool().readBarcodes(in: image)
        #expect(scan.barcodes.isEmpty)
        #expect(scan.promptRepresentation.hasPrefix("No barcodes found in image \"plain\""))
    }

    @Test func transparentBackgroundsAreFlattenedOntoWhite() throws {
        let images = try TestImages()
        let payload = "alpha-\(UUID().uuidString.prefix(8))"
        let opaque = try images.qrCode(payload, named: "opaque")
        let transparent = images.url("transparent.png")
        // white becomes transparent: black modules on nothing
        try TestImages.run("convert", [opaque.url.path, "-transparent", "white", "PNG32:" + transparent.path])
        let scan = try BarcodeReaderTool().readBarcodes(in: ImageAttachment(url: transparent, label: "transparent"))
        #expect(scan.barcodes.map(\.payload) == [payload])
    }
}
