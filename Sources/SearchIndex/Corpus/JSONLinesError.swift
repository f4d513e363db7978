/// A problem with one line of a JSON Lines file, or with the file as a whole. Each reader has
/// its own cases (an enum); these two every reader needs, so `JSONLines` can report them.
public protocol JSONLinesProblem: Sendable, Hashable {
    /// The file could not be read.
    static func unreadableFile(reason: String) -> Self
    /// Another line already used this identifier.
    static func duplicateIdentifier(_ identifier: String, firstLine: Int) -> Self
    /// What was wrong and what to do, as printed after the file and line.
    var explanation: String { get }
}

/// A JSON Lines record that could not be read: which file, which line, and what was wrong.
///
/// The message names the place first so the file can be fixed in an editor
/// (`trails.jsonl line 7: attribute "rating" must be a number, found a string`).
public struct JSONLinesError<Problem: JSONLinesProblem>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, when the lines came from one.
    public let path: String?
    /// 1-based; 0 for a problem with the file as a whole.
    public let line: Int
    public let problem: Problem

    public init(path: String?, line: Int, problem: Problem) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    public var description: String {
        let place = [path, line > 0 ? "line \(line)" : nil].compactMap { $0 }.joined(separator: " ")
        return (place.isEmpty ? "" : "\(place): ") + problem.explanation
    }
}
