/// One barcode found in an image (Apple's `VNBarcodeObservation`, reduced to what a model uses).
public struct Barcode: Sendable, Hashable, Codable {
    public var symbology: BarcodeSymbology
    /// The decoded content, as UTF-8 text (ZBar converts QR text in other encodings to UTF-8).
    public var payload: String
    /// Where the code is: the rectangle around the points ZBar located it by.
    public var bounds: PixelRect
    /// ZBar's relative quality score: how many scan lines agreed on the decode (higher is surer).
    public var quality: Int

    public init(symbology: BarcodeSymbology, payload: String, bounds: PixelRect, quality: Int) {
        self.symbology = symbology
        self.payload = payload
        self.bounds = bounds
        self.quality = quality
    }
}
