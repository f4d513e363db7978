import CTesseract
import CZBar
import Foundation
import LocalModel

// The only file in VisionTools that touches Leptonica, Tesseract or ZBar pointers. Each C object
// is owned by one Swift class that frees it in `deinit`, or lives inside one function that frees
// it before returning; everything outside this file sees Swift values.

/// One of the three C libraries, opened with dlopen the first time a vision tool needs it, so
/// that a process that never reads an image does not load them (Tesseract alone pulls in about
/// 60 shared libraries, 10 MiB of `ask`'s resident memory).
private struct VisionLibrary: @unchecked Sendable { // a dlopen handle is immutable; dlsym is thread-safe
    static let leptonica = VisionLibrary(soname: "liblept.so.5")
    static let tesseract = VisionLibrary(soname: "libtesseract.so.5")
    static let zbar = VisionLibrary(soname: "libzbar.so.0")

    let soname: String
    /// nil when the library could not be loaded; `failure` says why.
    let handle: UnsafeMutableRawPointer?
    let failure: String?

    private init(soname: String) {
        self.soname = soname
        handle = lantern_open_library(soname)
        failure = handle == nil ? lantern_library_error().map { String(cString: $0) } ?? "unknown error" : nil
    }

    /// Checks that the library loaded, before the first call into it.
    func require(engine: String, label: String) throws(VisionToolError) {
        guard let failure else { return }
        throw .recognitionFailed(label: label, engine: engine,
                                 reason: "\(soname) could not be loaded (\(failure)); install it with scripts/setup.sh")
    }
}

// The functions this file calls, resolved from the opened libraries on first use (Swift
// initializes globals lazily). They shadow the C declarations of the same names, so the code
// below reads like plain C calls.
private let setMsgSeverity = lantern_setMsgSeverity(VisionLibrary.leptonica.handle)!
private let findFileFormat = lantern_findFileFormat(VisionLibrary.leptonica.handle)!
private let pixReadHeader = lantern_pixReadHeader(VisionLibrary.leptonica.handle)!
private let pixRead = lantern_pixRead(VisionLibrary.leptonica.handle)!
private let pixGetSpp = lantern_pixGetSpp(VisionLibrary.leptonica.handle)!
private let pixAlphaBlendUniform = lantern_pixAlphaBlendUniform(VisionLibrary.leptonica.handle)!
private let pixDestroy = lantern_pixDestroy(VisionLibrary.leptonica.handle)!
private let pixGetWidth = lantern_pixGetWidth(VisionLibrary.leptonica.handle)!
private let pixGetHeight = lantern_pixGetHeight(VisionLibrary.leptonica.handle)!
private let pixConvertTo8 = lantern_pixConvertTo8(VisionLibrary.leptonica.handle)!
private let pixGetData = lantern_pixGetData(VisionLibrary.leptonica.handle)!
private let pixGetWpl = lantern_pixGetWpl(VisionLibrary.leptonica.handle)!
private let TessBaseAPICreate = lantern_TessBaseAPICreate(VisionLibrary.tesseract.handle)!
private let TessBaseAPIDelete = lantern_TessBaseAPIDelete(VisionLibrary.tesseract.handle)!
private let TessBaseAPISetVariable = lantern_TessBaseAPISetVariable(VisionLibrary.tesseract.handle)!
private let TessBaseAPIInit3 = lantern_TessBaseAPIInit3(VisionLibrary.tesseract.handle)!
private let TessBaseAPIGetDatapath = lantern_TessBaseAPIGetDatapath(VisionLibrary.tesseract.handle)!
private let TessBaseAPIEnd = lantern_TessBaseAPIEnd(VisionLibrary.tesseract.handle)!
private let TessBaseAPISetPageSegMode = lantern_TessBaseAPISetPageSegMode(VisionLibrary.tesseract.handle)!
private let TessBaseAPISetImage2 = lantern_TessBaseAPISetImage2(VisionLibrary.tesseract.handle)!
private let TessBaseAPIClear = lantern_TessBaseAPIClear(VisionLibrary.tesseract.handle)!
private let TessBaseAPIRecognize = lantern_TessBaseAPIRecognize(VisionLibrary.tesseract.handle)!
private let TessBaseAPIGetIterator = lantern_TessBaseAPIGetIterator(VisionLibrary.tesseract.handle)!
private let TessResultIteratorDelete = lantern_TessResultIteratorDelete(VisionLibrary.tesseract.handle)!
private let TessResultIteratorGetPageIteratorConst = lantern_TessResultIteratorGetPageIteratorConst(VisionLibrary.tesseract.handle)!
private let TessResultIteratorGetUTF8Text = lantern_TessResultIteratorGetUTF8Text(VisionLibrary.tesseract.handle)!
private let TessDeleteText = lantern_TessDeleteText(VisionLibrary.tesseract.handle)!
private let TessPageIteratorBoundingBox = lantern_TessPageIteratorBoundingBox(VisionLibrary.tesseract.handle)!
private let TessResultIteratorConfidence = lantern_TessResultIteratorConfidence(VisionLibrary.tesseract.handle)!
private let TessPageIteratorIsAtBeginningOf = lantern_TessPageIteratorIsAtBeginningOf(VisionLibrary.tesseract.handle)!
private let TessResultIteratorNext = lantern_TessResultIteratorNext(VisionLibrary.tesseract.handle)!
private let zbar_image_scanner_create = lantern_zbar_image_scanner_create(VisionLibrary.zbar.handle)!
private let zbar_image_scanner_destroy = lantern_zbar_image_scanner_destroy(VisionLibrary.zbar.handle)!
private let zbar_image_scanner_set_config = lantern_zbar_image_scanner_set_config(VisionLibrary.zbar.handle)!
private let zbar_image_create = lantern_zbar_image_create(VisionLibrary.zbar.handle)!
private let zbar_image_destroy = lantern_zbar_image_destroy(VisionLibrary.zbar.handle)!
private let zbar_image_set_format = lantern_zbar_image_set_format(VisionLibrary.zbar.handle)!
private let zbar_image_set_size = lantern_zbar_image_set_size(VisionLibrary.zbar.handle)!
private let zbar_image_set_data = lantern_zbar_image_set_data(VisionLibrary.zbar.handle)!
private let zbar_scan_image = lantern_zbar_scan_image(VisionLibrary.zbar.handle)!
private let zbar_image_first_symbol = lantern_zbar_image_first_symbol(VisionLibrary.zbar.handle)!
private let zbar_symbol_next = lantern_zbar_symbol_next(VisionLibrary.zbar.handle)!
private let zbar_symbol_get_type = lantern_zbar_symbol_get_type(VisionLibrary.zbar.handle)!
private let zbar_symbol_get_data_length = lantern_zbar_symbol_get_data_length(VisionLibrary.zbar.handle)!
private let zbar_symbol_get_data = lantern_zbar_symbol_get_data(VisionLibrary.zbar.handle)!
private let zbar_symbol_get_loc_size = lantern_zbar_symbol_get_loc_size(VisionLibrary.zbar.handle)!
private let zbar_symbol_get_loc_x = lantern_zbar_symbol_get_loc_x(VisionLibrary.zbar.handle)!
private let zbar_symbol_get_loc_y = lantern_zbar_symbol_get_loc_y(VisionLibrary.zbar.handle)!
private let zbar_symbol_get_quality = lantern_zbar_symbol_get_quality(VisionLibrary.zbar.handle)!
private let zbar_get_symbol_name = lantern_zbar_get_symbol_name(VisionLibrary.zbar.handle)!

/// Leptonica's process-wide state: its messages are silenced once, because every failure it
/// would print is turned into a `VisionToolError` that says the same thing to the caller.
private enum LeptonicaRuntime {
    static let quiet: Void = { _ = setMsgSeverity(l_int32(L_SEVERITY_NONE)) }()
}

/// An image decoded by Leptonica (PNG, JPEG, TIFF, PNM, GIF, WebP, BMP, JPEG 2000), flattened
/// onto white when it has an alpha channel, so that dark text on a transparent background reads.
final class LeptonicaImage {
    private var pix: UnsafeMutablePointer<PIX>?
    let width: Int
    let height: Int

    /// Reads the file behind `attachment`, refusing it before decoding when its header says it
    /// has more than `maximumPixels` pixels.
    init(_ attachment: ImageAttachment, maximumPixels: Int) throws(VisionToolError) {
        let label = attachment.label
        try VisionLibrary.leptonica.require(engine: "Leptonica", label: label)
        _ = LeptonicaRuntime.quiet
        let path = attachment.url.path
        guard FileManager.default.isReadableFile(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "the file cannot be read (permissions)" : "there is no such file"
            throw .unreadableImage(label: label, path: path, reason: reason)
        }
        var format: l_int32 = 0
        if findFileFormat(path, &format) != 0 || format == IFF_UNKNOWN {
            throw .unsupportedImageFormat(label: label, path: path)
        }
        var headerWidth: l_int32 = 0, headerHeight: l_int32 = 0
        guard pixReadHeader(path, nil, &headerWidth, &headerHeight, nil, nil, nil) == 0 else {
            throw .unreadableImage(label: label, path: path, reason: "its header is damaged")
        }
        guard Int(headerWidth) * Int(headerHeight) <= maximumPixels else {
            throw .imageTooLarge(label: label, width: Int(headerWidth), height: Int(headerHeight), maximumPixels: maximumPixels)
        }
        var decoded = pixRead(path)
        if let read = decoded, pixGetSpp(read) == 4 {
            // 0xrrggbb00: blend every transparent pixel towards white
            let flattened = pixAlphaBlendUniform(read, 0xFFFF_FF00)
            pixDestroy(&decoded)
            decoded = flattened
        }
        guard let decoded else {
            throw .unreadableImage(label: label, path: path, reason: "its image data is damaged or truncated")
        }
        pix = decoded
        width = Int(pixGetWidth(decoded))
        height = Int(pixGetHeight(decoded))
    }

    deinit { pixDestroy(&pix) }

    /// The image as 8-bit grey, one byte per pixel, rows top to bottom (what ZBar scans).
    func grayBytes(label: String) throws(VisionToolError) -> [UInt8] {
        var converted = pixConvertTo8(pix, 0)
        defer { pixDestroy(&converted) }
        guard let gray = converted else {
            throw .recognitionFailed(label: label, engine: "Leptonica", reason: "the image could not be converted to 8-bit grey")
        }
        guard let data = pixGetData(gray) else {
            throw .recognitionFailed(label: label, engine: "Leptonica", reason: "the grey image has no pixel data")
        }
        let wordsPerLine = Int(pixGetWpl(gray))
        var bytes = [UInt8](repeating: 0, count: width * height)
        bytes.withUnsafeMutableBufferPointer { output in
            for y in 0..<height {
                // Leptonica packs pixels into 32-bit words, most significant byte first.
                let row = UnsafeRawPointer(data + y * wordsPerLine).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    #if _endian(little)
                    output[y * width + x] = row[x ^ 3]
                    #else
                    output[y * width + x] = row[x]
                    #endif
                }
            }
        }
        return bytes
    }

    /// Gives Tesseract the image (it keeps its own reference until the next image).
    fileprivate func attach(to api: OpaquePointer) {
        TessBaseAPISetImage2(api, pix)
    }
}

/// One Tesseract engine with its language data loaded. Not thread-safe (Tesseract is not):
/// `OCREngine`, an actor, owns it.
final class TesseractAPI {
    private let handle: OpaquePointer

    /// Where Tesseract looks for `*.traineddata` (TESSDATA_PREFIX, else the path compiled
    /// into the library) and the language packs found there, `osd` (orientation and script
    /// detection, not a language) left out. The C API only reveals its data directory after
    /// an `Init`, so this initialises once with a name no pack has, quietly.
    static let installedLanguages: (directory: String, languages: [String]) = {
        guard VisionLibrary.tesseract.handle != nil, let probe = TessBaseAPICreate() else { return ("", []) }
        defer { TessBaseAPIDelete(probe) }
        _ = TessBaseAPISetVariable(probe, "debug_file", "/dev/null")
        _ = TessBaseAPIInit3(probe, nil, "lantern-probe")
        let directory = TessBaseAPIGetDatapath(probe).map { String(cString: $0) } ?? ""
        TessBaseAPIEnd(probe)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let languages = files.filter { $0.hasSuffix(".traineddata") }
            .map { String($0.dropLast(".traineddata".count)) }
            .filter { $0 != "osd" }
            .sorted()
        return (directory, languages)
    }()

    /// Loads `languages` (joined with "+", Tesseract's way of combining packs). Tesseract
    /// itself silently skips a missing pack when another loads, so each is checked first.
    init(languages: [String], mode: OCRTool.PageSegmentationMode, label: String) throws(VisionToolError) {
        try VisionLibrary.tesseract.require(engine: "Tesseract", label: label)
        let installed = Self.installedLanguages
        if let missing = languages.first(where: { !installed.languages.contains($0) }) {
            throw .missingLanguagePack(label: label, language: missing, installed: installed.languages, directory: installed.directory)
        }
        guard let handle = TessBaseAPICreate() else {
            throw .recognitionFailed(label: label, engine: "Tesseract", reason: "the engine could not be created")
        }
        _ = TessBaseAPISetVariable(handle, "debug_file", "/dev/null")
        guard TessBaseAPIInit3(handle, nil, languages.joined(separator: "+")) == 0 else {
            TessBaseAPIDelete(handle)
            throw .recognitionFailed(label: label, engine: "Tesseract",
                                     reason: "the language data for \(languages.joined(separator: "+")) in \(installed.directory) did not load; reinstall the packs (tesseract-ocr-LANG)")
        }
        TessBaseAPISetPageSegMode(handle, TessPageSegMode(rawValue: UInt32(mode.rawValue)))
        self.handle = handle
    }

    deinit {
        TessBaseAPIEnd(handle)
        TessBaseAPIDelete(handle)
    }

    /// Recognises the text of `image`: lines in reading order, each with its words.
    func recognize(_ image: LeptonicaImage, label: String) throws(VisionToolError) -> [RecognizedText.Line] {
        image.attach(to: handle)
        defer { TessBaseAPIClear(handle) }
        guard TessBaseAPIRecognize(handle, nil) == 0 else {
            throw .recognitionFailed(label: label, engine: "Tesseract", reason: "recognition failed")
        }
        guard let iterator = TessBaseAPIGetIterator(handle) else { return [] }   // no text at all
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIteratorConst(iterator)

        func text(_ level: TessPageIteratorLevel) -> String {
            guard let pointer = TessResultIteratorGetUTF8Text(iterator, level) else { return "" }
            defer { TessDeleteText(pointer) }
            return String(cString: pointer).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func box(_ level: TessPageIteratorLevel) -> PixelRect {
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            _ = TessPageIteratorBoundingBox(page, level, &left, &top, &right, &bottom)
            return PixelRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top))
        }
        func confidence(_ level: TessPageIteratorLevel) -> Float {
            let percent = TessResultIteratorConfidence(iterator, level)
            return percent.isFinite ? min(max(percent / 100, 0), 1) : 0
        }

        var lines: [RecognizedText.Line] = []
        var block = -1
        repeat {
            if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 { block += 1 }
            if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                lines.append(RecognizedText.Line(text: text(RIL_TEXTLINE), bounds: box(RIL_TEXTLINE),
                                                 confidence: confidence(RIL_TEXTLINE), block: max(block, 0), words: []))
            }
            let word = text(RIL_WORD)
            if !word.isEmpty, !lines.isEmpty {
                lines[lines.count - 1].words.append(.init(text: word, bounds: box(RIL_WORD), confidence: confidence(RIL_WORD)))
            }
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return lines.filter { !$0.text.isEmpty }
    }
}

/// ZBar's decoder over an 8-bit grey image: every symbol it finds, with symbology, payload and
/// position. A scanner is made per image; it is cheap and not shareable across threads.
enum ZBarScanner {
    /// "Y800": ZBar's name for 8-bit grey (zbar_fourcc is a macro Swift cannot import).
    private static let greyFormat: UInt = UInt(UInt8(ascii: "Y")) | UInt(UInt8(ascii: "8")) << 8
        | UInt(UInt8(ascii: "0")) << 16 | UInt(UInt8(ascii: "0")) << 24

    static func scan(_ image: LeptonicaImage, label: String) throws(VisionToolError) -> [Barcode] {
        try VisionLibrary.zbar.require(engine: "ZBar", label: label)
        let bytes = try image.grayBytes(label: label)
        guard let scanner = zbar_image_scanner_create() else {
            throw .recognitionFailed(label: label, engine: "ZBar", reason: "the scanner could not be created")
        }
        defer { zbar_image_scanner_destroy(scanner) }
        _ = zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_POSITION, 1)
        guard let zimage = zbar_image_create() else {
            throw .recognitionFailed(label: label, engine: "ZBar", reason: "the image could not be created")
        }
        defer { zbar_image_destroy(zimage) }
        zbar_image_set_format(zimage, greyFormat)
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        let (status, barcodes) = bytes.withUnsafeBytes { buffer -> (Int32, [Barcode]) in
            // no cleanup handler: the bytes belong to Swift; ZBar reads them only in this closure
            zbar_image_set_data(zimage, buffer.baseAddress, UInt(buffer.count), nil)
            defer { zbar_image_set_data(zimage, nil, 0, nil) }
            let status = zbar_scan_image(scanner, zimage)
            var barcodes: [Barcode] = []
            var symbol = zbar_image_first_symbol(zimage)
            while let current = symbol {
                barcodes.append(barcode(current))
                symbol = zbar_symbol_next(current)
            }
            return (status, barcodes)
        }
        guard status >= 0 else {
            throw .recognitionFailed(label: label, engine: "ZBar", reason: "scanning failed")
        }
        return barcodes
    }

    private static func barcode(_ symbol: OpaquePointer) -> Barcode {
        let type = zbar_symbol_get_type(symbol)
        let length = Int(zbar_symbol_get_data_length(symbol))
        let payload = zbar_symbol_get_data(symbol).map { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
        } ?? ""
        let points = (0..<zbar_symbol_get_loc_size(symbol)).map { index in
            (x: Int(zbar_symbol_get_loc_x(symbol, index)), y: Int(zbar_symbol_get_loc_y(symbol, index)))
        }
        let bounds: PixelRect
        if let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
           let minY = points.map(\.y).min(), let maxY = points.map(\.y).max() {
            bounds = PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        } else {
            bounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
        }
        return Barcode(symbology: symbology(type), payload: payload, bounds: bounds,
                       quality: Int(zbar_symbol_get_quality(symbol)))
    }

    private static func symbology(_ type: zbar_symbol_type_t) -> BarcodeSymbology {
        switch type {
        case ZBAR_QRCODE: .qr
        case ZBAR_EAN13: .ean13
        case ZBAR_EAN8: .ean8
        case ZBAR_UPCA: .upca
        case ZBAR_UPCE: .upce
        case ZBAR_ISBN10: .isbn10
        case ZBAR_ISBN13: .isbn13
        case ZBAR_EAN2: .ean2
        case ZBAR_EAN5: .ean5
        case ZBAR_CODE128: .code128
        case ZBAR_CODE93: .code93
        case ZBAR_CODE39: .code39
        case ZBAR_I25: .itf
        case ZBAR_CODABAR: .codabar
        case ZBAR_PDF417: .pdf417
        case ZBAR_DATABAR: .gs1DataBar
        case ZBAR_DATABAR_EXP: .gs1DataBarExpanded
        case ZBAR_COMPOSITE: .composite
        case ZBAR_SQCODE: .sqCode
        default: BarcodeSymbology(rawValue: zbar_get_symbol_name(type).map { String(cString: $0) } ?? "type \(type.rawValue)")
        }
    }
}
