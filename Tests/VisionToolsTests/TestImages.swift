import Foundation
import LocalModel

/// Makes test images with real programs (ImageMagick, qrencode, GNU barcode, Ghostscript, all
/// installed by scripts/setup.sh) in a fresh temporary folder.
struct TestImages {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lantern-vision-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Black text on white, one image line per line of `text`, rendered by ImageMagick.
    func text(_ text: String, named name: String, pointSize: Int = 36) throws -> ImageAttachment {
        let file = url(name + ".png")
        try Self.run("convert", ["-background", "white", "-fill", "black", "-font", "DejaVu-Sans",
                                 "-pointsize", String(pointSize), "label:" + text,
                                 "-bordercolor", "white", "-border", "40", file.path])
        return ImageAttachment(url: file, label: name)
    }

    /// A QR code made by qrencode.
    func qrCode(_ payload: String, named name: String) throws -> ImageAttachment {
        let file = url(name + ".png")
        try Self.run("qrencode", ["-s", "6", "-m", "4", "-o", file.path, payload])
        return ImageAttachment(url: file, label: name)
    }

    /// A linear barcode made by GNU barcode (`encoding` as its -e takes it: ean13, 128, …),
    /// as EPS rasterised to grey PNG by Ghostscript (Debian's ImageMagick refuses PostScript).
    func barcode(_ payload: String, encoding: String, named name: String) throws -> ImageAttachment {
        let eps = url(name + ".eps"), file = url(name + ".png")
        try Self.run("barcode", ["-b", payload, "-e", encoding, "-E", "-o", eps.path])
        try Self.run("gs", ["-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dEPSCrop", "-sDEVICE=pnggray", "-r200",
                            "-sOutputFile=" + file.path, eps.path])
        return ImageAttachment(url: file, label: name)
    }

    /// Width and height as ImageMagick's identify reads them.
    static func size(of attachment: ImageAttachment) throws -> (width: Int, height: Int) {
        let numbers = try run("identify", ["-format", "%w %h", attachment.url.path]).split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 2 else { throw ProgramFailure(description: "identify printed no size for \(attachment.url.path)") }
        return (numbers[0], numbers[1])
    }

    struct ProgramFailure: Error, CustomStringConvertible { let description: String }

    /// Runs a program found on PATH and returns its standard output; throws on a non-zero exit.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ProgramFailure(description: "\(program) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): "
                                 + String(decoding: message, as: UTF8.self) + " (run scripts/setup.sh)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The words of a text, lowercased, without punctuation: what OCR output is compared on.
func words(_ text: String) -> [String] {
    text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
}
