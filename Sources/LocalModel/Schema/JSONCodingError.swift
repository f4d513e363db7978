/// A JSON value that does not fit a Swift type, or a Swift value that cannot become JSON.
public enum JSONCodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `json` could not be decoded as `type`; `reason` names the path and the mismatch.
    case cannotDecode(type: String, reason: String, json: String)
    /// A value of `type` could not be encoded (for example a non-finite Double).
    case cannotEncode(type: String, reason: String)

    public var description: String {
        switch self {
        case .cannotDecode(let type, let reason, let json):
            let shown = json.count > 200 ? String(json.prefix(200)) + "…" : json
            return "cannot decode \(type) from \(shown): \(reason); make the type's properties match the schema it was generated from"
        case .cannotEncode(let type, let reason):
            return "cannot encode \(type) as JSON: \(reason)"
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "the top level" : String(p.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(let type, let context): return "expected \(type) at \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "expected \(type) but found null at \(path(context))"
        case .dataCorrupted(let context): return "\(context.debugDescription) at \(path(context))"
        @unknown default: return "\(error)"
        }
    }
}
