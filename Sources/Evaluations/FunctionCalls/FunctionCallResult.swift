import LocalModel

/// What one function-calling case produced: whether its schemas converted, the calls the model
/// made, whether they were valid and right, and what the response cost.
public struct FunctionCallResult: Sendable, Hashable, Codable {
    public var caseID: String
    /// Why `GenerationSchema(jsonSchema:)` refused one of the case's tools; nil when all converted.
    /// A case whose schemas did not convert is not run.
    public var schemaError: String?
    /// Why the response failed (context overflow, engine error); nil when it ended normally.
    public var error: String?
    /// The functions called, in order, repeats included.
    public var calledFunctions: [String]
    /// Every call attempted, malformed ones included.
    public var attemptedCalls: Int
    /// Calls that parsed and validate against their tool's schema.
    public var validCalls: Int
    /// Whether the first call is one of the acceptable calls (AST match).
    public var rightCall: Bool
    /// Why the first call is not acceptable (or "no call"); nil when it is.
    public var mismatch: String?
    /// The call round alone: the first generation round, the one `.required` makes write the
    /// calls. The round after it, in which the model reads the canned results and answers, is
    /// not counted, so the figure is the work a peer does when it stops at the call.
    public var tokens: TokenCounts
    /// The call round, as `tokens`: from the prompt to the end of the round that wrote the calls
    /// (the prompt's rendering, the budget check and the grammar included).
    public var latency: Latency

    public init(caseID: String, schemaError: String? = nil, error: String? = nil, calledFunctions: [String] = [],
                attemptedCalls: Int = 0, validCalls: Int = 0, rightCall: Bool = false, mismatch: String? = nil,
                tokens: TokenCounts = TokenCounts(), latency: Latency = Latency()) {
        self.caseID = caseID
        self.schemaError = schemaError
        self.error = error
        self.calledFunctions = calledFunctions
        self.attemptedCalls = attemptedCalls
        self.validCalls = validCalls
        self.rightCall = rightCall
        self.mismatch = mismatch
        self.tokens = tokens
        self.latency = latency
    }

    /// Sets `rightCall` and `mismatch` from the first call made (nil when none was), scored
    /// with `FunctionCallScorer` against the case's acceptable `calls`. One place, so Lantern's
    /// calls and a peer's are scored alike.
    public mutating func score(firstCall: (toolName: String, arguments: JSONValue)?, against calls: [FunctionCallCase.ExpectedCall]) {
        guard let firstCall else {
            rightCall = false
            mismatch = "no call"
            return
        }
        let found = FunctionCallScorer().mismatch(toolName: firstCall.toolName, arguments: firstCall.arguments, against: calls)
        rightCall = found == nil
        mismatch = found?.description
    }

    /// Whether every tool schema of the case converted (and the case ran).
    public var schemasConverted: Bool { schemaError == nil }
    /// Whether the model made exactly one call: what a one-call question wants.
    public var exactlyOneCall: Bool { attemptedCalls == 1 }
}
