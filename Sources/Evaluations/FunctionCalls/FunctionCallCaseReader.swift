import Foundation
import LocalModel
import SearchIndex

/// Reads a function-calls dataset in JSON Lines, one `FunctionCallCase` per line (the shape is
/// in `FunctionCallCase`). Blank lines are skipped, ids must be unique, and every problem names
/// its file, line and field. Tool schemas are not converted here: a schema Lantern refuses is a
/// result the evaluation counts, not a broken dataset.
public struct FunctionCallCaseReader: Sendable {
    public init() {}

    /// Reads every case of the file at `url`.
    public func cases(contentsOf url: URL) throws(FunctionCallReaderError) -> [FunctionCallCase] {
        try cases(fromText: JSONLines.text(of: url, problem: FunctionCallProblem.self), path: url.path)
    }

    /// Reads every case of JSON Lines `text`; `path` only labels errors.
    public func cases(fromText text: String, path: String? = nil) throws(FunctionCallReaderError) -> [FunctionCallCase] {
        let cases = try JSONLines.records(in: text, path: path, identifier: \.id) { (line, number) throws(FunctionCallReaderError) in
            try functionCallCase(fromLine: line, number: number, path: path)
        }
        guard !cases.isEmpty else { throw FunctionCallReaderError(path: path, line: 0, problem: .empty) }
        return cases
    }

    /// Reads one line; `number` and `path` label errors.
    public func functionCallCase(fromLine line: String, number: Int = 1, path: String? = nil) throws(FunctionCallReaderError) -> FunctionCallCase {
        do throws(FunctionCallProblem) {
            let value: JSONValue
            do { value = try JSONValue(parsing: line) } catch { throw FunctionCallProblem.invalidJSON(reason: error.description) }
            guard case .object(let object) = value else { throw FunctionCallProblem.invalidJSON(reason: "the line is not an object") }
            return try Self.read(Fields(object, path: ""))
        } catch {
            throw FunctionCallReaderError(path: path, line: number, problem: error)
        }
    }

    private static func read(_ line: Fields) throws(FunctionCallProblem) -> FunctionCallCase {
        let id = try line.nonEmptyString("id")
        let question = try line.nonEmptyString("question")
        let tools = try line.objects("tools").map { tool throws(FunctionCallProblem) in
            FunctionCallCase.ToolDefinition(name: try tool.nonEmptyString("name"), description: try tool.string("description"),
                                            parameters: .object(try tool.object("parameters").object))
        }
        let names = Set(tools.map(\.name))
        let calls = try line.objects("calls").map { call throws(FunctionCallProblem) in
            let name = try call.nonEmptyString("name")
            guard names.contains(name) else { throw .unknownFunction(name, field: call.field("name")) }
            let arguments = try call.object("arguments")
            var acceptable: [String: FunctionCallCase.AcceptableValues] = [:]
            for (argument, _) in arguments.object {
                acceptable[argument] = try acceptableValues(arguments.object(argument))
            }
            return FunctionCallCase.ExpectedCall(name: name, arguments: acceptable)
        }
        return FunctionCallCase(id: id, question: question, tools: tools, calls: calls)
    }

    private static func acceptableValues(_ fields: Fields) throws(FunctionCallProblem) -> FunctionCallCase.AcceptableValues {
        let optional = try fields.optionalBool("optional") ?? false
        let values = try fields.optionalArray("values") ?? []
        if values.isEmpty && !optional {
            throw .invalidField(fields.field("values"), reason: "list at least one acceptable value, or mark the argument \"optional\": true")
        }
        let tolerance = try fields.optionalNumber("tolerance")
        if let tolerance, !(tolerance >= 0) {
            throw .invalidField(fields.field("tolerance"), reason: "must be a number of at least 0")
        }
        return FunctionCallCase.AcceptableValues(values: values, optional: optional, tolerance: tolerance)
    }

    /// One JSON object of the line and where it is, so each problem names its field
    /// (`calls[0].arguments.city.values`).
    private struct Fields {
        let object: JSONObject
        let path: String

        init(_ object: JSONObject, path: String) {
            self.object = object
            self.path = path
        }

        func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

        func required(_ key: String) throws(FunctionCallProblem) -> JSONValue {
            guard let value = object[key] else { throw .missingField(field(key)) }
            return value
        }

        func string(_ key: String) throws(FunctionCallProblem) -> String {
            guard case .string(let text) = try required(key) else { throw .invalidField(field(key), reason: "expected a string") }
            return text
        }

        func nonEmptyString(_ key: String) throws(FunctionCallProblem) -> String {
            let text = try string(key)
            guard !text.allSatisfy(\.isWhitespace) else { throw .emptyField(field(key)) }
            return text
        }

        func object(_ key: String) throws(FunctionCallProblem) -> Fields {
            guard case .object(let member) = try required(key) else { throw .invalidField(field(key), reason: "expected an object") }
            return Fields(member, path: field(key))
        }

        /// A non-empty list of objects.
        func objects(_ key: String) throws(FunctionCallProblem) -> [Fields] {
            guard case .array(let items) = try required(key) else { throw .invalidField(field(key), reason: "expected a list of objects") }
            guard !items.isEmpty else { throw .emptyField(field(key)) }
            var members: [Fields] = []
            for (index, item) in items.enumerated() {
                guard case .object(let member) = item else { throw .invalidField("\(field(key))[\(index)]", reason: "expected an object") }
                members.append(Fields(member, path: "\(field(key))[\(index)]"))
            }
            return members
        }

        func optionalArray(_ key: String) throws(FunctionCallProblem) -> [JSONValue]? {
            guard let value = object[key] else { return nil }
            guard case .array(let items) = value else { throw .invalidField(field(key), reason: "expected a list of values") }
            return items
        }

        func optionalBool(_ key: String) throws(FunctionCallProblem) -> Bool? {
            guard let value = object[key] else { return nil }
            guard case .bool(let flag) = value else { throw .invalidField(field(key), reason: "expected true or false") }
            return flag
        }

        func optionalNumber(_ key: String) throws(FunctionCallProblem) -> Double? {
            guard let value = object[key] else { return nil }
            guard let number = value.doubleValue else { throw .invalidField(field(key), reason: "expected a number") }
            return number
        }
    }
}
