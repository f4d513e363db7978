extension OCRTool {
    /// How Tesseract splits the page into blocks and lines before reading them (its
    /// `--psm`; raw values are Tesseract's numbers).
    public enum PageSegmentationMode: Int, Sendable, Hashable, Codable {
        /// Find the layout: columns, blocks, images (Tesseract's own default, psm 3).
        case automatic = 3
        /// One column of text of varying sizes (psm 4): a receipt, a settings screen, a chat.
        /// Lantern's default, because photos of receipts and screenshots are what gets
        /// attached, and the automatic layout splits their aligned prices off into columns.
        case singleColumn = 4
        /// One uniform block of text (psm 6): a paragraph, a label.
        case singleBlock = 6
        /// A single line (psm 7): a cropped title, a serial number.
        case singleLine = 7
        /// A single word (psm 8).
        case singleWord = 8
        /// As much text as possible in no particular order (psm 11): a busy UI, a poster.
        case sparseText = 11
    }
}
