/// Compiles a `GenerationSchema` to a llama.cpp GBNF grammar, so a model can only write values
/// that match it.
///
/// Small models wander: an unbounded string, number or array lets a 135M model write until the
/// context is full. So everything the compiler emits is bounded: strings by `maxLength` or
/// `Options.maximumStringLength`, arrays by `maxItems` or `Options.maximumArrayItems`, integers
/// by their bounds (exactly, as digit-structured alternatives) or `Options.maximumIntegerDigits`,
/// fractions by `Options.maximumFractionDigits`, and whitespace to one optional space at the
/// places JSON allows it. Objects list required and optional properties in schema order;
/// optional ones may be left out, and the grammar stays unambiguous (each choice starts with a
/// different key). Rule names come from property paths and are deterministic.
///
/// Number bounds, inclusive or exclusive, are exact on the grid of `maximumFractionDigits`; free
/// keys (dictionaries, any value) may repeat, which generated text is read with (the last wins).
/// Where a grammar can only approximate a schema (a string's length bounds beside a pattern,
/// oneOf's "exactly one"), the grammar is the looser of the two and `GenerationSchema.validate`
/// checks the rest.
public struct GrammarCompiler: Sendable {
    /// Caps applied where the schema is silent.
    public struct Options: Sendable, Hashable {
        /// Longest string when the schema gives no `maxLength`; also caps `*`/`+` in patterns.
        /// Counts here and in schemas are capped at 2000, llama.cpp's repetition limit.
        public var maximumStringLength: Int
        /// Most array items when the schema gives no `maxItems`.
        public var maximumArrayItems: Int
        /// Most digits of an integer (or a number's whole part) on a side the schema leaves
        /// unbounded; at most 18.
        public var maximumIntegerDigits: Int
        /// Most digits after a number's decimal point.
        public var maximumFractionDigits: Int
        /// Whether a number without bounds may carry an exponent (`8.854e-12`, at most two
        /// exponent digits). Bounded numbers are written without one, so their bounds stay exact.
        public var allowsExponent: Bool
        /// How deep a free-form value (`anyValue`, a dictionary's values) may nest objects and arrays.
        public var maximumFreeFormDepth: Int
        /// Most members of a free-form object or array, and keys of a dictionary without `maxProperties`.
        public var maximumFreeFormMembers: Int
        /// Longest key of a free-form object or dictionary.
        public var maximumKeyLength: Int

        public init(maximumStringLength: Int = 256, maximumArrayItems: Int = 16, maximumIntegerDigits: Int = 12,
                    maximumFractionDigits: Int = 6, allowsExponent: Bool = true, maximumFreeFormDepth: Int = 3,
                    maximumFreeFormMembers: Int = 8, maximumKeyLength: Int = 64) {
            self.maximumStringLength = min(max(maximumStringLength, 0), GBNF.repetitionLimit)
            self.maximumArrayItems = min(max(maximumArrayItems, 0), GBNF.repetitionLimit)
            self.maximumIntegerDigits = min(max(maximumIntegerDigits, 1), 18)
            self.maximumFractionDigits = max(maximumFractionDigits, 0)
            self.allowsExponent = allowsExponent
            self.maximumFreeFormDepth = min(max(maximumFreeFormDepth, 0), 8)
            self.maximumFreeFormMembers = min(max(maximumFreeFormMembers, 0), GBNF.repetitionLimit)
            self.maximumKeyLength = min(max(maximumKeyLength, 1), GBNF.repetitionLimit)
        }
    }

    /// A tool as the tool-call grammar needs it: its wire name and its arguments' schema.
    public struct ToolSignature: Sendable, Hashable {
        public var name: String
        public var arguments: GenerationSchema
        public init(name: String, arguments: GenerationSchema) {
            self.name = name
            self.arguments = arguments
        }
    }

    public var options: Options

    public init(options: Options = Options()) { self.options = options }

    /// A grammar whose root is one value of `schema` and nothing else: guided generation
    /// (`respond(to:generating:)`), where the whole answer is the value.
    public func grammar(for schema: GenerationSchema) throws(SchemaError) -> Grammar {
        var builder = RuleBuilder(options: options)
        let body = try builder.body(schema, name: "root", path: "#", scope: ScopeDefinitions(schema))
        return builder.finish(root: body)
    }

    /// The grammar of a round of tool calls in `syntax` (Hermes's by default): one to
    /// `maximumCalls` calls, each
    ///
    ///     <tool_call>
    ///     {"name": "<tool>", "arguments": <arguments>}
    ///     </tool_call>
    ///
    /// in Hermes, where the name is one of `tools` and the arguments match THAT tool's schema (a
    /// union over the tools, name first). The root starts with the syntax's trigger: nothing
    /// before it, which is what llama.cpp's lazy grammar expects when the trigger starts it and
    /// what `.required` needs from the first token. After the last call the grammar is complete,
    /// so generation ends there.
    ///
    /// With `bareCall`, the root may also be one call object written bare, from the syntax's
    /// `bareCallOpening` (`{"name": `, however spaced) on: the spelling Qwen2.5-Coder writes instead of its
    /// tags, which the reader runs as a call (`CallSpellings`), so its name and arguments are
    /// held to the schemas too (an id the search never showed was called, and its error
    /// echoed as the answer).
    public func toolCallGrammar(for tools: [ToolSignature], syntax: ToolCallSyntax = .hermes,
                                maximumCalls: Int = 4, bareCall: Bool = false) throws(SchemaError) -> Grammar {
        var builder = RuleBuilder(options: options)
        let calls = try builder.toolCalls(tools, syntax: syntax, maximumCalls: maximumCalls, bareCall: bareCall)
        return builder.finish(root: calls)
    }

    /// A grammar whose root is either a round of tool calls (as `toolCallGrammar`) or one value
    /// of `schema` (as `grammar(for:)`): guided generation in a session with tools, where each
    /// round is a valid call or the valid answer, and the model's first token chooses which.
    public func grammar(for schema: GenerationSchema, orToolCalls tools: [ToolSignature],
                        syntax: ToolCallSyntax = .hermes, maximumCalls: Int = 4) throws(SchemaError) -> Grammar {
        var builder = RuleBuilder(options: options)
        let calls = builder.rule("tool-calls", try builder.toolCalls(tools, syntax: syntax, maximumCalls: maximumCalls))
        let answer = builder.rule("answer", try builder.body(schema, name: "answer", path: "#", scope: ScopeDefinitions(schema)))
        return builder.finish(root: calls + " | " + answer)
    }
}

/// The `$defs` visible while compiling one schema (the schema's own and its subschemas'),
/// with the prefix their rules get so two tools' definitions never collide.
struct ScopeDefinitions {
    let table: [String: GenerationSchema]
    let prefix: String

    init(_ schema: GenerationSchema, prefix: String = "") {
        var table: [String: GenerationSchema] = [:]
        schema.collectDefinitions(into: &table)
        self.table = table
        self.prefix = prefix
    }

    func ruleName(_ definition: String) -> String {
        GBNF.ruleName((prefix.isEmpty ? "" : prefix + "-") + "def-" + definition)
    }
}

/// Accumulates rules with deterministic, unique names; identical bodies share one rule.
private struct RuleBuilder {
    let options: GrammarCompiler.Options
    private var rules: [(name: String, body: String)] = []
    private var nameOfBody: [String: String] = [:]
    private var usedNames: Set<String> = ["root"]
    /// Definition rules already emitted or being emitted (recursion resolves to the name).
    private var definitionRules: [String: String] = [:]

    static let whitespace = "ws"
    static let stringCharacter = "char"
    /// The most whitespace a bare call object's opening takes between its parts: as much as
    /// the engine's trigger watch keeps (`TriggerWatch.spacing`).
    static let openingSpacing = TriggerWatch.spacing

    init(options: GrammarCompiler.Options) {
        self.options = options
        _ = rule(Self.whitespace, "\" \"?")
        _ = rule(Self.stringCharacter, #"[^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})"#)
    }

    /// The rule with this body, created under `preferredName` (made unique) if new.
    mutating func rule(_ preferredName: String, _ body: String) -> String {
        if let existing = nameOfBody[body] { return existing }
        let name = uniqueName(preferredName)
        rules.append((name, body))
        nameOfBody[body] = name
        return name
    }

    private mutating func uniqueName(_ preferred: String) -> String {
        let base = GBNF.ruleName(preferred)
        var name = base
        var n = 2
        while usedNames.contains(name) {
            name = "\(base)-\(n)"
            n += 1
        }
        usedNames.insert(name)
        return name
    }

    func finish(root body: String) -> Grammar {
        var lines = ["root ::= " + body]
        for (name, body) in rules { lines.append("\(name) ::= \(body)") }
        return Grammar(gbnf: lines.joined(separator: "\n") + "\n", root: "root")
    }

    /// The body of a round of calls (see `GrammarCompiler.toolCallGrammar`).
    mutating func toolCalls(_ tools: [GrammarCompiler.ToolSignature], syntax: ToolCallSyntax, maximumCalls: Int,
                            bareCall: Bool = false) throws(SchemaError) -> String {
        guard !tools.isEmpty else { throw .invalid(reason: "a tool-call grammar needs at least one tool", path: "tools") }
        guard maximumCalls >= 1 else { throw .invalid(reason: "maximumCalls must be at least 1, got \(maximumCalls)", path: "maximumCalls") }
        var seen: Set<String> = []
        var choices: [String] = []
        for tool in tools {
            guard !tool.name.isEmpty, seen.insert(tool.name).inserted else {
                throw .invalid(reason: tool.name.isEmpty ? "a tool has an empty name" : "two tools are named \"\(tool.name)\"", path: "tools")
            }
            let scope = GBNF.ruleName(tool.name)
            let arguments = try value(tool.arguments, name: scope + "-arguments", path: "tools/\(tool.name)/arguments",
                                      scope: ScopeDefinitions(tool.arguments, prefix: scope))
            switch syntax.body {
            case .jsonObject(let key, _):
                choices.append(GBNF.sequence([GBNF.literal(JSONValue.quoted(tool.name) + ", " + JSONValue.quoted(key) + ": "), arguments]))
            case .nameThenArguments(let separator):
                choices.append(GBNF.sequence([GBNF.literal(tool.name + separator), arguments]))
            }
        }
        let choice = rule("tool-choice", choices.joined(separator: " | "))
        let body: [String]
        switch syntax.body {
        case .jsonObject(_, let identifier):
            let member = identifier.map { GBNF.sequence([GBNF.literal(", " + JSONValue.quoted($0.key) + ": "), rule("call-id", $0.grammar)]) }
            body = [GBNF.literal(syntax.callOpen + "{\"name\": "), choice, member ?? "", GBNF.literal("}" + syntax.callClose)]
        case .nameThenArguments:
            body = [syntax.callOpen.isEmpty ? "" : GBNF.literal(syntax.callOpen), choice, syntax.callClose.isEmpty ? "" : GBNF.literal(syntax.callClose)]
        }
        let call = rule("tool-call", GBNF.sequence(body))
        let callsAllowed = min(maximumCalls, syntax.maximumCallsPerRound ?? maximumCalls)
        let separator = syntax.separator.isEmpty ? call : "(" + GBNF.literal(syntax.separator) + " " + call + ")"
        let more = GBNF.repeated(separator, minimum: 0, maximum: callsAllowed - 1)
        let round = GBNF.sequence([syntax.roundOpen.isEmpty ? "" : GBNF.literal(syntax.roundOpen), call, more,
                                   syntax.roundClose.isEmpty ? "" : GBNF.literal(syntax.roundClose)])
        guard bareCall, let opening = syntax.bareCallOpening, case .jsonObject = syntax.body, body.count == 4 else { return round }
        // the call object alone: the body between the syntax's own call tags, opened as the
        // model spaced it (the trigger found it so), up to a line break and indentation a part
        let spacing = rule("opening-spacing", "[ \\t\\n\\r]{0,\(Self.openingSpacing)}")
        let spaced = LenientPattern(opening).parts.map(GBNF.literal).joined(separator: " \(spacing) ") + " \(spacing)"
        let bare = rule("bare-tool-call", GBNF.sequence([spaced, choice, body[2], GBNF.literal("}")]))
        return "(" + round + ") | " + bare
    }

    /// A single GBNF term (a rule name) for one value of `schema`.
    mutating func value(_ schema: GenerationSchema, name: String, path: String, scope: ScopeDefinitions) throws(SchemaError) -> String {
        switch schema.kind {
        case .reference(let definition): return try reference(definition, path: path, scope: scope)
        case .boolean: return rule("boolean", try body(schema, name: name, path: path, scope: scope))
        case .null: return rule("null", try body(schema, name: name, path: path, scope: scope))
        default: return rule(name, try body(schema, name: name, path: path, scope: scope))
        }
    }

    /// The right-hand side of a rule for one value of `schema`; `name` prefixes the rules of its parts.
    mutating func body(_ schema: GenerationSchema, name: String, path: String, scope: ScopeDefinitions) throws(SchemaError) -> String {
        switch schema.kind {
        case .string(let minLength, let maxLength, let pattern):
            let low = minLength ?? 0
            let high = maxLength ?? max(options.maximumStringLength, low)
            guard low <= high else { throw .invalid(reason: "minLength \(low) is above maxLength \(high)", path: path) }
            try checkRepetition(low, "minLength", path: path)
            if let pattern {
                var translator = PatternTranslator(pattern, path: path + "/pattern", openRepetitionLimit: high)
                let content = try translator.translate()
                return GBNF.sequence(["\"\\\"\"", GBNF.group(content.isEmpty ? "\"\"" : content), "\"\\\"\""])
            }
            return GBNF.sequence(["\"\\\"\"", GBNF.repeated(Self.stringCharacter, minimum: low, maximum: high), "\"\\\"\""])

        case .integer(let minimum, let maximum):
            if let minimum, let maximum, minimum > maximum {
                throw .invalid(reason: "minimum \(minimum) is above maximum \(maximum)", path: path)
            }
            let cap = IntegerRangeGrammar.power10(options.maximumIntegerDigits) - 1
            if minimum == nil && maximum == nil {
                return "\"-\"? " + unboundedMagnitude
            }
            let low = minimum ?? min(-cap, maximum ?? 0)
            let high = maximum ?? max(cap, low)
            return IntegerRangeGrammar.expression(low: low, high: high)

        case .number(let minimum, let maximum, let exclusiveMinimum, let exclusiveMaximum):
            let lows = [minimum, exclusiveMinimum].compactMap { $0 }
            let highs = [maximum, exclusiveMaximum].compactMap { $0 }
            for bound in lows + highs where !bound.isFinite { throw .invalid(reason: "number bounds must be finite", path: path) }
            // The tighter bound on each side; at equal values the exclusive one.
            let low = Self.tighter(minimum.map { .init(value: $0, isInclusive: true) }, exclusiveMinimum.map { .init(value: $0, isInclusive: false) }, by: >)
            let high = Self.tighter(maximum.map { .init(value: $0, isInclusive: true) }, exclusiveMaximum.map { .init(value: $0, isInclusive: false) }, by: <)
            if let low, let high, low.value > high.value || (low.value == high.value && !(low.isInclusive && high.isInclusive)) {
                throw .invalid(reason: "no number lies between the lower bound \(low.value) and the upper bound \(high.value)", path: path)
            }
            return try numberBody(low: low, high: high, path: path)

        case .boolean:
            return "\"true\" | \"false\""
        case .null:
            return "\"null\""

        case .array(let items, let minItems, let maxItems):
            let low = minItems ?? 0
            let high = maxItems ?? max(options.maximumArrayItems, low)
            guard low <= high else { throw .invalid(reason: "minItems \(low) is above maxItems \(high)", path: path) }
            try checkRepetition(low, "minItems", path: path)
            if high == 0 { return Self.delimitedList("[", item: "", low: 0, high: 0, "]") }
            let item = try value(items, name: name + "-item", path: path + "/items", scope: scope)
            return Self.delimitedList("[", item: item, low: low, high: high, "]")

        case .tuple(let prefix, let rest, let maxItems):
            let high = maxItems ?? (rest == nil ? prefix.count : prefix.count + options.maximumArrayItems)
            guard high >= prefix.count else { throw .invalid(reason: "maxItems \(high) is below the tuple's \(prefix.count) items", path: path) }
            var terms = ["\"[\" ws"]
            for (i, item) in prefix.enumerated() {
                let term = try value(item, name: "\(name)-\(i)", path: "\(path)/prefixItems/\(i)", scope: scope)
                terms.append(i == 0 ? term : "\",\" ws " + term)
            }
            if let rest, high > prefix.count {
                let term = try value(rest, name: name + "-rest", path: path + "/items", scope: scope)
                terms.append(GBNF.repeated("(\",\" ws \(term))", minimum: 0, maximum: high - prefix.count))
            }
            return GBNF.sequence(terms + ["ws \"]\""])

        case .dictionary(let values, let maxProperties):
            let term = try value(values, name: name + "-value", path: path + "/additionalProperties", scope: scope)
            let entry = rule(name + "-entry", GBNF.sequence([freeFormKey(), "ws \":\" ws", term]))
            return Self.delimitedList("{", item: entry, low: 0, high: maxProperties ?? options.maximumFreeFormMembers, "}")

        case .anyValue:
            return freeFormValue(depth: options.maximumFreeFormDepth)

        case .formatted(let format):
            return try body(.string(pattern: format.pattern), name: name, path: path + "/format", scope: scope)

        case .object(let properties):
            var seen: Set<String> = []
            var pairs: [String] = []
            for property in properties {
                guard seen.insert(property.name).inserted else {
                    throw .invalid(reason: "property \"\(property.name)\" is listed twice", path: path)
                }
                let valueTerm = try value(property.schema, name: name + "-" + property.name,
                                          path: path + "/properties/" + property.name, scope: scope)
                pairs.append(rule(name + "-" + property.name + "-kv",
                                  GBNF.sequence([GBNF.literal(JSONValue.quoted(property.name)), "ws \":\" ws", valueTerm])))
            }
            guard !properties.isEmpty else { return "\"{\" ws \"}\"" }
            // After the first written property every later one is ", key: value", required or optional.
            func tail(from start: Int) -> String {
                GBNF.sequence((start..<properties.count).map { k in
                    let term = "\",\" ws \(pairs[k])"
                    return properties[k].isOptional ? "(" + term + ")?" : term
                })
            }
            // The first written property is any optional one up to and including the first required.
            var firsts: [String] = []
            for (i, property) in properties.enumerated() {
                firsts.append(GBNF.sequence([pairs[i], tail(from: i + 1)]))
                if !property.isOptional { break }
            }
            let allOptional = properties.allSatisfy(\.isOptional)
            let members = GBNF.group(firsts.joined(separator: " | "))
            return GBNF.sequence(["\"{\" ws", allOptional ? "(" + members + " ws)?" : members + " ws", "\"}\""])

        case .anyOf(let schemas), .oneOf(let schemas):
            guard !schemas.isEmpty else { throw .invalid(reason: "a union needs at least one alternative", path: path) }
            let keyword = if case .oneOf = schema.kind { "oneOf" } else { "anyOf" }
            var alternatives: [String] = []
            for (i, alternative) in schemas.enumerated() {
                let term = try value(alternative, name: "\(name)-\(i)", path: "\(path)/\(keyword)/\(i)", scope: scope)
                if !alternatives.contains(term) { alternatives.append(term) }
            }
            return alternatives.joined(separator: " | ")

        case .enumeration(let values):
            guard !values.isEmpty else { throw .invalid(reason: "an enum needs at least one value", path: path) }
            return values.map { GBNF.literal($0.jsonString) }.joined(separator: " | ")
        case .constant(let value):
            return GBNF.literal(value.jsonString)

        case .reference(let definition):
            return try reference(definition, path: path, scope: scope)
        }
    }

    /// The rule of a definition, compiled on first use; a recursive use gets the rule's name
    /// before its body exists.
    private mutating func reference(_ definition: String, path: String, scope: ScopeDefinitions) throws(SchemaError) -> String {
        let key = scope.ruleName(definition)
        if let existing = definitionRules[key] { return existing }
        guard let target = scope.table[definition] else { throw .unresolvedReference(name: definition, path: path) }
        try checkConsumes(definition, scope: scope, path: path, visiting: [])
        let ruleName = uniqueName(key)
        definitionRules[key] = ruleName
        let body = try body(target, name: ruleName, path: "#/$defs/" + definition, scope: scope)
        rules.append((ruleName, body))
        return ruleName
    }

    /// A minimum count llama.cpp can repeat (maxima above its limit are clamped instead, which
    /// only narrows what can be generated).
    private func checkRepetition(_ minimum: Int, _ keyword: String, path: String) throws(SchemaError) {
        guard minimum > GBNF.repetitionLimit else { return }
        throw .unsupported(construct: "\(keyword) \(minimum)", path: path,
                           hint: "llama.cpp grammars repeat at most \(GBNF.repetitionLimit) times; lower it")
    }

    /// A definition must write at least one character before it can reach itself again;
    /// otherwise the grammar is left-recursive and llama.cpp refuses it.
    private func checkConsumes(_ definition: String, scope: ScopeDefinitions, path: String, visiting: Set<String>) throws(SchemaError) {
        guard !visiting.contains(definition) else {
            throw .unsupported(construct: "a definition \"\(definition)\" that refers to itself through references and unions alone",
                               path: path, hint: "wrap the recursion in an object or array so each level writes something")
        }
        guard let target = scope.table[definition] else { return }
        var pending = [target]
        while let schema = pending.popLast() {
            switch schema.kind {
            case .reference(let next): try checkConsumes(next, scope: scope, path: path, visiting: visiting.union([definition]))
            case .anyOf(let schemas), .oneOf(let schemas): pending += schemas
            default: break
            }
        }
    }

    /// `open`, then `low` to `high` of `item` separated by commas, then `close`: the shape of
    /// JSON arrays and objects.
    private static func delimitedList(_ open: String, item: String, low: Int, high: Int, _ close: String) -> String {
        let (open, close) = (GBNF.literal(open), GBNF.literal(close))
        if high == 0 { return GBNF.sequence([open, "ws", close]) }
        let rest = GBNF.repeated("(\",\" ws \(item))", minimum: max(low - 1, 0), maximum: high - 1)
        let filled = GBNF.sequence([item, rest, "ws"])
        return GBNF.sequence([open, "ws", low == 0 ? "(" + filled + ")?" : filled, close])
    }

    /// The rule of a key of a free-form object or dictionary.
    private mutating func freeFormKey() -> String {
        rule("free-key", GBNF.sequence(["\"\\\"\"", GBNF.repeated(Self.stringCharacter, minimum: 1, maximum: options.maximumKeyLength), "\"\\\"\""]))
    }

    /// Any JSON value with objects and arrays nested at most `depth` deep, each with at most
    /// `maximumFreeFormMembers` members.
    private mutating func freeFormValue(depth: Int) -> String {
        let string = GBNF.sequence(["\"\\\"\"", GBNF.repeated(Self.stringCharacter, minimum: 0, maximum: options.maximumStringLength), "\"\\\"\""])
        let number = numberBody(unboundedWith: options.allowsExponent)
        var alternatives = [rule("free-string", string), rule("free-number", number), "\"true\" | \"false\" | \"null\""]
        if depth > 0 {
            let inner = rule("free-value-\(depth - 1)", freeFormValue(depth: depth - 1))
            let member = rule("free-member-\(depth - 1)", GBNF.sequence([freeFormKey(), "ws \":\" ws", inner]))
            alternatives.append(Self.delimitedList("{", item: member, low: 0, high: options.maximumFreeFormMembers, "}"))
            alternatives.append(Self.delimitedList("[", item: inner, low: 0, high: options.maximumFreeFormMembers, "]"))
        }
        return alternatives.joined(separator: " | ")
    }

    /// An integer magnitude with at most `maximumIntegerDigits` digits and no leading zero.
    private var unboundedMagnitude: String {
        "(\"0\" | [1-9] " + GBNF.repeated("[0-9]", minimum: 0, maximum: options.maximumIntegerDigits - 1) + ")"
    }

    /// A number without bounds, with an exponent when `exponent`.
    private func numberBody(unboundedWith exponent: Bool) -> String {
        let digits = options.maximumFractionDigits
        let fraction = digits == 0 ? "" : "(\".\" " + GBNF.repeated("[0-9]", minimum: 1, maximum: digits) + ")?"
        return GBNF.sequence(["\"-\"?", unboundedMagnitude, fraction, exponent ? "([eE] [-+]? [0-9]{1,2})?" : ""])
    }

    /// Numbers between the bounds, exactly (`DecimalRangeGrammar`); for bounds too large to
    /// count in steps of the last fraction digit, whole-number bounds inside them.
    private func numberBody(low: DecimalRangeGrammar.Bound?, high: DecimalRangeGrammar.Bound?, path: String) throws(SchemaError) -> String {
        if low == nil && high == nil { return numberBody(unboundedWith: options.allowsExponent) }
        let digits = options.maximumFractionDigits
        let fraction = digits == 0 ? "" : "(\".\" " + GBNF.repeated("[0-9]", minimum: 1, maximum: digits) + ")?"
        let cap = IntegerRangeGrammar.power10(options.maximumIntegerDigits) - 1
        if let exact = DecimalRangeGrammar.expression(low: low, high: high, fractionDigits: digits, largestWhole: cap) { return exact }

        let zeroFraction = digits == 0 ? "" : "(\".\" " + GBNF.repeated("\"0\"", minimum: 1, maximum: digits) + ")?"
        let largest = Double(IntegerRangeGrammar.largestMagnitude)
        func whole(_ bound: DecimalRangeGrammar.Bound?, _ direction: FloatingPointRoundingRule, step: Double) -> Double? {
            guard let bound else { return nil }
            let rounded = bound.value.rounded(direction)
            return rounded == bound.value && !bound.isInclusive ? rounded + step : rounded
        }
        let lowWhole = max(whole(low, .up, step: 1) ?? -Double(cap), -largest)
        let highWhole = min(whole(high, .down, step: -1) ?? max(Double(cap), lowWhole), largest)
        guard lowWhole <= highWhole else {
            throw .invalid(reason: "no number with at most \(digits) fraction digits lies between the bounds", path: path)
        }
        // Magnitudes a...b: any fraction below b, and b itself only with zeros after the point.
        func magnitudes(_ a: Int, _ b: Int) -> String {
            var alternatives: [String] = []
            if a < b { alternatives.append(GBNF.sequence([GBNF.group(IntegerRangeGrammar.expression(low: a, high: b - 1)), fraction])) }
            alternatives.append(GBNF.sequence([GBNF.literal(String(b)), zeroFraction]))
            return alternatives.joined(separator: " | ")
        }
        var alternatives: [String] = []
        if lowWhole < 0 {
            alternatives.append("\"-\" (" + magnitudes(max(0, Int(-min(highWhole, 0))), Int(-lowWhole)) + ")")
        }
        if highWhole >= 0 {
            alternatives.append(magnitudes(Int(max(lowWhole, 0)), Int(highWhole)))
        }
        return alternatives.joined(separator: " | ")
    }

    /// Of two optional bounds, the one `isTighter` prefers by value; the exclusive one at equal values.
    private static func tighter(_ inclusive: DecimalRangeGrammar.Bound?, _ exclusive: DecimalRangeGrammar.Bound?,
                                by isTighter: (Double, Double) -> Bool) -> DecimalRangeGrammar.Bound? {
        guard let inclusive, let exclusive else { return inclusive ?? exclusive }
        return isTighter(inclusive.value, exclusive.value) ? inclusive : exclusive
    }
}
