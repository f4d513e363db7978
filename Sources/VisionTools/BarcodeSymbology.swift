/// The kind of barcode (Apple's `VNBarcodeSymbology`): an open set of names, so a symbology
/// ZBar adds later still comes through, under ZBar's own name.
public struct BarcodeSymbology: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let qr = BarcodeSymbology(rawValue: "QR")
    public static let ean13 = BarcodeSymbology(rawValue: "EAN-13")
    public static let ean8 = BarcodeSymbology(rawValue: "EAN-8")
    public static let upca = BarcodeSymbology(rawValue: "UPC-A")
    public static let upce = BarcodeSymbology(rawValue: "UPC-E")
    /// An EAN-13 in the ISBN range; ZBar reports it only when ISBN decoding is enabled.
    public static let isbn10 = BarcodeSymbology(rawValue: "ISBN-10")
    public static let isbn13 = BarcodeSymbology(rawValue: "ISBN-13")
    /// The 2- and 5-digit add-ons printed beside EAN/UPC codes.
    public static let ean2 = BarcodeSymbology(rawValue: "EAN-2")
    public static let ean5 = BarcodeSymbology(rawValue: "EAN-5")
    public static let code128 = BarcodeSymbology(rawValue: "Code 128")
    public static let code93 = BarcodeSymbology(rawValue: "Code 93")
    public static let code39 = BarcodeSymbology(rawValue: "Code 39")
    /// Interleaved 2 of 5 (Apple: `i2of5`).
    public static let itf = BarcodeSymbology(rawValue: "ITF")
    public static let codabar = BarcodeSymbology(rawValue: "Codabar")
    public static let pdf417 = BarcodeSymbology(rawValue: "PDF417")
    public static let gs1DataBar = BarcodeSymbology(rawValue: "GS1 DataBar")
    public static let gs1DataBarExpanded = BarcodeSymbology(rawValue: "GS1 DataBar Expanded")
    public static let composite = BarcodeSymbology(rawValue: "EAN/UPC Composite")
    public static let sqCode = BarcodeSymbology(rawValue: "SQ Code")
}
