import Foundation

/// Apple's uniform type identifier hierarchy, for `kMDItemContentTypeTree` queries: a type matches
/// itself and every type it conforms to, so `public.content` matches every text, document, image,
/// audio and movie type and `public.image` every image.
///
/// Linux has no system type database, so this is a fixed table of the types Lantern's files source
/// writes and the common system-declared ones (Apple's `UTType` conformances, simplified). A stored
/// content type the table does not know conforms only to itself (and to `public.item`).
enum ContentTypeTree {
    /// Each type's direct parents.
    static let parents: [String: [String]] = [
        "public.item": [],
        "public.content": [],
        "public.data": ["public.item"],
        "public.folder": ["public.item"],
        "public.directory": ["public.item"],
        // Text
        "public.text": ["public.data", "public.content"],
        "public.plain-text": ["public.text"],
        "public.utf8-plain-text": ["public.plain-text"],
        "public.utf16-plain-text": ["public.plain-text"],
        "public.rtf": ["public.text"],
        "public.html": ["public.text"],
        "public.xml": ["public.text"],
        "public.xhtml": ["public.xml"],
        "public.json": ["public.text"],
        "public.yaml": ["public.text"],
        "public.delimited-values-text": ["public.text"],
        "public.comma-separated-values-text": ["public.delimited-values-text"],
        "public.tab-separated-values-text": ["public.delimited-values-text"],
        "net.daringfireball.markdown": ["public.plain-text"],
        "public.source-code": ["public.plain-text"],
        "public.c-source": ["public.source-code"],
        "public.c-header": ["public.source-code"],
        "public.c-plus-plus-source": ["public.source-code"],
        "public.objective-c-source": ["public.source-code"],
        "public.swift-source": ["public.source-code"],
        "public.script": ["public.source-code"],
        "public.shell-script": ["public.script"],
        "public.python-script": ["public.script"],
        "public.ruby-script": ["public.script"],
        "public.perl-script": ["public.script"],
        "com.netscape.javascript-source": ["public.source-code"],
        // Documents
        "public.composite-content": ["public.content"],
        "com.adobe.pdf": ["public.data", "public.composite-content"],
        "public.presentation": ["public.composite-content"],
        "public.spreadsheet": ["public.content"],
        "com.microsoft.word.doc": ["public.data", "public.composite-content"],
        "org.openxmlformats.wordprocessingml.document": ["public.data", "public.composite-content"],
        "org.openxmlformats.spreadsheetml.sheet": ["public.data", "public.spreadsheet"],
        "org.openxmlformats.presentationml.presentation": ["public.data", "public.presentation"],
        "org.oasis-open.opendocument.text": ["public.data", "public.composite-content"],
        "public.message": ["public.content"],
        "com.apple.mail.emlx": ["public.data", "public.message"],
        "public.email-message": ["public.data", "public.message"],
        "public.contact": ["public.content"],
        "public.vcard": ["public.text", "public.contact"],
        "public.calendar-event": ["public.content"],
        // Images
        "public.image": ["public.data", "public.content"],
        "public.jpeg": ["public.image"],
        "public.png": ["public.image"],
        "public.tiff": ["public.image"],
        "com.compuserve.gif": ["public.image"],
        "com.microsoft.bmp": ["public.image"],
        "com.microsoft.ico": ["public.image"],
        "public.heif-standard": ["public.image"],
        "public.heic": ["public.heif-standard"],
        "org.webmproject.webp": ["public.image"],
        "public.svg-image": ["public.image", "public.xml"],
        "public.camera-raw-image": ["public.image"],
        "com.adobe.photoshop-image": ["public.image"],
        // Audio and video
        "public.audiovisual-content": ["public.data", "public.content"],
        "public.audio": ["public.audiovisual-content"],
        "public.mp3": ["public.audio"],
        "public.mpeg-4-audio": ["public.audio"],
        "com.apple.m4a-audio": ["public.mpeg-4-audio"],
        "com.microsoft.waveform-audio": ["public.audio"],
        "public.aiff-audio": ["public.audio"],
        "org.xiph.flac": ["public.audio"],
        "org.xiph.ogg-audio": ["public.audio"],
        "public.movie": ["public.audiovisual-content"],
        "public.video": ["public.movie"],
        "public.mpeg-4": ["public.movie"],
        "public.mpeg": ["public.movie"],
        "com.apple.quicktime-movie": ["public.movie"],
        "public.avi": ["public.movie"],
        // Archives
        "public.archive": ["public.data"],
        "public.zip-archive": ["public.archive"],
        "org.gnu.gnu-zip-archive": ["public.archive"],
        "public.tar-archive": ["public.archive"],
    ]

    /// `type` and every type it conforms to (lowercased; UTIs are case-insensitive).
    static func ancestors(of type: String) -> Set<String> {
        var seen: Set<String> = ["public.item"]
        var pending = [type.lowercased()]
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            pending += parents[next] ?? []
        }
        return seen
    }

    /// Every known type that conforms to `type`, `type` itself first.
    static func conformingTypes(to type: String) -> [String] {
        let target = type.lowercased()
        return [target] + parents.keys.filter { $0 != target && ancestors(of: $0).contains(target) }.sorted()
    }
}
