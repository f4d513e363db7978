import LocalModel

/// One function-calling question: the tools offered (as JSON Schema, the form tools are written
/// in elsewhere), the question, and the calls that answer it, with the values each argument may
/// take. One line of a function-calls JSON Lines file (`FunctionCallCaseReader`):
///
/// ```json
/// {"id": "weather-1", "question": "What is the weather in Lyon?",
///  "tools": [{"name": "get_weather", "description": "Current weather for a city",
///             "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
///  "calls": [{"name": "get_weather", "arguments": {"city": {"values": ["Lyon", "Lyon, France"]}}}]}
/// ```
///
/// Acceptable values are listed rather than one expected value because a question often has
/// several right spellings ("Lyon", "Lyon, France"), as in the usual AST-scored benchmarks.
public struct FunctionCallCase: Sendable, Hashable {
    /// A tool as JSON Schema tools are published: a name, a description and its parameters.
    public struct ToolDefinition: Sendable, Hashable {
        public var name: String
        public var description: String
        /// A JSON Schema object; `GenerationSchema(jsonSchema:)` reads it at run time.
        public var parameters: JSONValue

        public init(name: String, description: String, parameters: JSONValue) {
            self.name = name
            self.description = description
            self.parameters = parameters
        }
    }

    /// A call that answers the question: the function and, per argument, what is acceptable.
    public struct ExpectedCall: Sendable, Hashable {
        public var name: String
        public var arguments: [String: AcceptableValues]

        public init(name: String, arguments: [String: AcceptableValues]) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// The values one argument may take. Strings compare case-insensitively after trimming,
    /// numbers by value (within `tolerance` when given), arrays and objects member by member by
    /// the same rules. An `optional` argument may also be absent.
    public struct AcceptableValues: Sendable, Hashable {
        public var values: [JSONValue]
        public var optional: Bool
        /// The largest absolute difference a number may have from an acceptable one; nil is exact.
        public var tolerance: Double?

        public init(values: [JSONValue], optional: Bool = false, tolerance: Double? = nil) {
            self.values = values
            self.optional = optional
            self.tolerance = tolerance
        }
    }

    public var id: String
    public var question: String
    public var tools: [ToolDefinition]
    /// Alternatives: a call is right when it matches any one of them.
    public var calls: [ExpectedCall]

    public init(id: String, question: String, tools: [ToolDefinition], calls: [ExpectedCall]) {
        self.id = id
        self.question = question
        self.tools = tools
        self.calls = calls
    }
}
