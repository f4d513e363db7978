import Foundation
import SearchIndex

/// Reads an evaluation dataset in JSON Lines, one `EvaluationSample` per line. Blank lines are
/// skipped; ids must be unique, and every problem names its file and line.
public struct SampleReader: Sendable {
    public init() {}

    /// Reads every sample of the file at `url`.
    public func samples(contentsOf url: URL) throws(SampleReaderError) -> [EvaluationSample] {
        try samples(fromText: JSONLines.text(of: url, problem: SampleProblem.self), path: url.path)
    }

    /// Reads every sample of JSON Lines `text`; `path` only labels errors.
    public func samples(fromText text: String, path: String? = nil) throws(SampleReaderError) -> [EvaluationSample] {
        let samples = try JSONLines.records(in: text, path: path, identifier: \.id) { (line, number) throws(SampleReaderError) in
            try sample(fromLine: line, number: number, path: path)
        }
        guard !samples.isEmpty else { throw SampleReaderError(path: path, line: 0, problem: .empty) }
        return samples
    }

    /// Reads one line; `number` and `path` label errors.
    public func sample(fromLine line: String, number: Int = 1, path: String? = nil) throws(SampleReaderError) -> EvaluationSample {
        func fail(_ problem: SampleProblem) -> SampleReaderError {
            SampleReaderError(path: path, line: number, problem: problem)
        }
        let sample: EvaluationSample
        do {
            sample = try JSONDecoder().decode(EvaluationSample.self, from: Data(line.utf8))
        } catch let error as DecodingError {
            throw fail(Self.problem(error))
        } catch {
            throw fail(.invalidJSON(reason: "\(error)"))
        }
        if sample.id.isEmpty { throw fail(.emptyField("id")) }
        if sample.prompt.allSatisfy(\.isWhitespace) { throw fail(.emptyField("prompt")) }
        return sample
    }

    /// Turns a decoder's error into the field it is about and a sentence.
    private static func problem(_ error: DecodingError) -> SampleProblem {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .missingField(field(context.codingPath + [key]))
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return .invalidJSON(reason: "the line is not an object") }
            return .invalidField(field(context.codingPath), reason: "expected \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            return .invalidField(field(context.codingPath), reason: "expected \(Self.name(of: type)), found null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return .invalidJSON(reason: context.debugDescription) }
            return .invalidField(field(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .invalidJSON(reason: "\(error)")
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is [String].Type: "a list of strings"
        case is [ToolExpectation].Type: "a list of {\"tool\", \"arguments\"} objects"
        default: "an object"
        }
    }
}
