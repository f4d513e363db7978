import LocalModel

/// What `BarcodeReaderTool` found in one image: every barcode, in ZBar's order. The model reads
/// `promptRepresentation`; a caller calling the tool directly gets the values.
public struct BarcodeScan: Sendable, Hashable, Codable, PromptRepresentable {
    /// The attachment's label.
    public var label: String
    public var width: Int
    public var height: Int
    public var barcodes: [Barcode]

    public init(label: String, width: Int, height: Int, barcodes: [Barcode]) {
        self.label = label
        self.width = width
        self.height = height
        self.barcodes = barcodes
    }

    /// One line per barcode: symbology, box, and the payload as a JSON string (so a payload
    /// with quotes or line breaks cannot be mistaken for the next line).
    public var promptRepresentation: String {
        let size = "\(width)×\(height) px"
        guard !barcodes.isEmpty else { return "No barcodes found in image \"\(label)\" (\(size))." }
        let count = barcodes.count == 1 ? "1 barcode" : "\(barcodes.count) barcodes"
        let header = "\(count) in image \"\(label)\" (\(size); box = x,y,width,height in pixels from the top left):"
        let lines = barcodes.map { "\($0.symbology) at \($0.bounds.compact): \(JSONValue.string($0.payload).jsonString)" }
        return ([header] + lines).joined(separator: "\n")
    }
}
