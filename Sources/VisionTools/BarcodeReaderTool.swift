import LocalModel

/// Reads every barcode and QR code in an image attached to the prompt (Apple's
/// `BarcodeReaderTool`, on ZBar).
///
/// The model calls it with an attachment's label, `{"image": "parcel"}`, and reads back each
/// code's symbology, payload and position. Decoding is exact, which is why this is a tool: a
/// model looking at bars can only guess.
public struct BarcodeReaderTool: Tool {
    public typealias Arguments = ImageArguments

    public let name: String
    public let description: String
    /// Images with more pixels are refused before they are decoded (`imageTooLarge`). Apple's
    /// tool has no such knob; Lantern adds it because a local process has no memory to spare
    /// for a 100-megapixel mistake.
    public let maximumImagePixels: Int

    public init(name: String? = nil, description: String? = nil, maximumImagePixels: Int = 25_000_000) {
        self.name = name ?? "read_barcodes"
        self.description = description
            ?? "Reads the barcodes and QR codes in an image attached to the prompt. Returns each code's type, content and position."
        self.maximumImagePixels = maximumImagePixels
    }

    /// Restricts `image` to the labels of the prompt's attachments.
    public func parameters(for prompt: Prompt) async -> GenerationSchema { ImageArguments.schema(for: prompt) }

    /// Reads the barcodes of the attachment the model named; throws `VisionToolError`.
    public func call(arguments: ImageArguments) async throws -> BarcodeScan {
        try readBarcodes(in: arguments.resolvedInCurrentCall())
    }

    /// Reads the barcodes of an image directly, without a session.
    public func readBarcodes(in attachment: ImageAttachment) throws(VisionToolError) -> BarcodeScan {
        let image = try LeptonicaImage(attachment, maximumPixels: maximumImagePixels)
        let barcodes = try ZBarScanner.scan(image, label: attachment.label)
        return BarcodeScan(label: attachment.label, width: image.width, height: image.height, barcodes: barcodes)
    }
}
