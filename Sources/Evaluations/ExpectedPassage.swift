/// Where in a long document the fact a sample needs is: the file (its identifier, or its name
/// relative to the evaluated folder), and the PDF page or the Markdown line (with its heading
/// path, for people reading the dataset). Passage coverage counts the ones whose place reached
/// the model.
///
/// One JSON object: `{"file": str, "page": int?, "heading": str?, "line": int?}`.
public struct ExpectedPassage: Sendable, Hashable, Codable {
    public var file: String
    public var page: Int?
    public var heading: String?
    public var line: Int?

    public init(file: String, page: Int? = nil, heading: String? = nil, line: Int? = nil) {
        self.file = file
        self.page = page
        self.heading = heading
        self.line = line
    }
}
