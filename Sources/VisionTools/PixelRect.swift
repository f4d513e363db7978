/// A rectangle in image pixels, origin at the top-left corner, y growing downwards.
///
/// Apple's Vision reports normalized rectangles with the origin at the bottom left; Lantern
/// reports whole pixels from the top left, as the image file and Tesseract count them, because
/// a small model reads and compares integers far more reliably than fractions.
public struct PixelRect: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// "x,y,width,height": the compact form tool outputs use.
    var compact: String { "\(x),\(y),\(width),\(height)" }
}
