import Foundation

/// REFERENCE ONLY, not used by Lantern: the regular-expression HTML-to-text function that
/// `FileTextExtractor.stripHTML` was before HTML went through libxml2 (`HTMLTextExtractor`),
/// copied unchanged so the html section can time the new extractor against it in the same
/// run. It drops comments, scripts, styles and every tag, decodes six entities, and keeps the
/// page's chrome and its source line breaks.
enum RegexHTMLReference {
    /// The old extraction as FileTextExtractor ran it: the bytes decoded as UTF-8, then stripped.
    static func extract(_ bytes: Data) -> (text: String, title: String?) {
        stripHTML(String(decoding: bytes, as: UTF8.self))
    }

    static func stripHTML(_ html: String) -> (text: String, title: String?) {
        var text = html
        let title = text.range(of: "<title[^>]*>([^<]*)</title>", options: [.regularExpression, .caseInsensitive]).map {
            String(text[$0]).replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for pattern in ["<!--[\\s\\S]*?-->", "<script[^>]*>[\\s\\S]*?</script>", "<style[^>]*>[\\s\\S]*?</style>", "<[^>]*>"] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: [.regularExpression, .caseInsensitive])
        }
        for (entity, replacement) in [("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: replacement)
        }
        text = text.replacingOccurrences(of: "[ \\t]+", with: " ", options: .regularExpression)
            .replacingOccurrences(of: "\\s*\\n\\s*", with: "\n", options: .regularExpression)
        return (text.trimmingCharacters(in: .whitespacesAndNewlines), title?.isEmpty == false ? title : nil)
    }
}
