/// A command line `eval` cannot run with; the message says which flag and what it takes.
enum EvalArgumentError: Error, CustomStringConvertible {
    case unknownFlag(String)
    case missingValue(String)
    case invalidValue(String, String, expected: String)
    case defaultModelMissing(looked: [String])

    var description: String {
        switch self {
        case .unknownFlag(let flag):
            "unknown option \(flag); run eval --help for the options"
        case .missingValue(let flag):
            "\(flag) needs a value"
        case let .invalidValue(flag, value, expected):
            "\(flag) \(value): expected \(expected)"
        case .defaultModelMissing(let looked):
            "no --model given and the default model is not at \(looked.joined(separator: " or ")); run scripts/setup.sh from the repository, or pass --model PATH.gguf"
        }
    }
}
