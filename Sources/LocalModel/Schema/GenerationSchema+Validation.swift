extension GenerationSchema {
    /// Checks `value` against the schema, throwing at the first mismatch with its path from
    /// `rootName` (e.g. `arguments.query.limit: 120 is above the maximum 50`).
    ///
    /// The grammar makes generated values valid by construction where it can; this catches what
    /// a grammar only approximates (a string's length beside a pattern, oneOf's "exactly one")
    /// and checks values that did not come from the grammar at all.
    public func validate(_ value: JSONValue, rootName: String = "value") throws(SchemaValidationError) {
        var definitions: [String: GenerationSchema] = [:]
        collectDefinitions(into: &definitions)
        try SchemaValidator(definitions: definitions).check(value, against: self, path: rootName)
    }

    /// Every definition in this schema and the schemas inside it, by name (first one wins).
    func collectDefinitions(into table: inout [String: GenerationSchema]) {
        for definition in definitions {
            if table[definition.name] == nil {
                table[definition.name] = definition.schema
                definition.schema.collectDefinitions(into: &table)
            }
        }
        switch kind {
        case .array(let items, _, _), .dictionary(let items, _): items.collectDefinitions(into: &table)
        case .tuple(let prefix, let rest, _): for s in prefix + [rest].compactMap({ $0 }) { s.collectDefinitions(into: &table) }
        case .object(let properties): for p in properties { p.schema.collectDefinitions(into: &table) }
        case .anyOf(let schemas), .oneOf(let schemas): for s in schemas { s.collectDefinitions(into: &table) }
        default: break
        }
    }
}

/// Walks a value and its schema together.
private struct SchemaValidator {
    let definitions: [String: GenerationSchema]

    func check(_ value: JSONValue, against schema: GenerationSchema, path: String, depth: Int = 0) throws(SchemaValidationError) {
        func fail(_ reason: String) -> SchemaValidationError { SchemaValidationError(path: path, reason: reason) }
        func mismatch(_ expected: String) -> SchemaValidationError {
            SchemaValidationError(path: path, reason: "expected \(expected), found \(shown(value))", isTypeMismatch: true)
        }
        func shown(_ v: JSONValue) -> String {
            let text = v.jsonString
            return text.count > 60 ? String(text.prefix(60)) + "…" : text
        }
        guard depth < 256 else { throw fail("nested deeper than 256 levels of references") }

        switch schema.kind {
        case .string(let minLength, let maxLength, let pattern):
            guard case .string(let s) = value else { throw mismatch("a string") }
            let length = s.unicodeScalars.count
            if let minLength, length < minLength { throw fail("\(shown(value)) is shorter than the minimum length \(minLength)") }
            if let maxLength, length > maxLength { throw fail("\(shown(value)) is longer than the maximum length \(maxLength) (\(length) characters)") }
            if let pattern {
                let regex: Regex<AnyRegexOutput>
                // Unicode scalars, as the grammar reads text: a combining mark is a character of
                // its own, not part of the letter before it.
                do { regex = try Regex(pattern).matchingSemantics(.unicodeScalar) } catch { throw fail("the schema's pattern \(pattern) is not a valid regular expression") }
                if (try? regex.wholeMatch(in: s)) == nil { throw fail("\(shown(value)) does not match the pattern \(pattern)") }
            }
        case .integer(let minimum, let maximum):
            guard case .int(let i) = value else {
                if let d = value.doubleValue, d.rounded() == d {
                    throw fail("\(shown(value)) is outside the range of whole numbers this platform holds")
                }
                throw mismatch("an integer")
            }
            if let minimum, i < minimum { throw fail("\(i) is below the minimum \(minimum)") }
            if let maximum, i > maximum { throw fail("\(i) is above the maximum \(maximum)") }
        case .number(let minimum, let maximum, let exclusiveMinimum, let exclusiveMaximum):
            guard let d = value.doubleValue else { throw mismatch("a number") }
            let text = shown(value)
            // Bounds as the schema would print them: 1, not 1.0.
            func bound(_ b: Double) -> String { Int(exactly: b).map(String.init) ?? JSONValue.double(b).jsonString }
            if let minimum, d < minimum { throw fail("\(text) is below the minimum \(bound(minimum))") }
            if let maximum, d > maximum { throw fail("\(text) is above the maximum \(bound(maximum))") }
            if let exclusiveMinimum, d <= exclusiveMinimum { throw fail("\(text) is not above the exclusive minimum \(bound(exclusiveMinimum))") }
            if let exclusiveMaximum, d >= exclusiveMaximum { throw fail("\(text) is not below the exclusive maximum \(bound(exclusiveMaximum))") }
        case .boolean:
            guard case .bool = value else { throw mismatch("true or false") }
        case .null:
            guard case .null = value else { throw mismatch("null") }
        case .array(let items, let minItems, let maxItems):
            guard case .array(let elements) = value else { throw mismatch("an array") }
            if let minItems, elements.count < minItems { throw fail("has \(elements.count) items, fewer than the minimum \(minItems)") }
            if let maxItems, elements.count > maxItems { throw fail("has \(elements.count) items, more than the maximum \(maxItems)") }
            for (i, element) in elements.enumerated() {
                try check(element, against: items, path: "\(path)[\(i)]", depth: depth + 1)
            }
        case .object(let properties):
            guard case .object(let object) = value else { throw mismatch("an object") }
            for key in object.keys where !properties.contains(where: { $0.name == key }) {
                throw fail("unexpected property \"\(key)\" (allowed: \(properties.map(\.name).joined(separator: ", ")))")
            }
            for property in properties {
                if let member = object[property.name] {
                    try check(member, against: property.schema, path: "\(path).\(property.name)", depth: depth + 1)
                } else if !property.isOptional {
                    throw fail("missing required property \"\(property.name)\"")
                }
            }
        case .anyOf(let schemas):
            var failures: [SchemaValidationError] = []
            for schema in schemas {
                do { try check(value, against: schema, path: path, depth: depth + 1); return }
                catch { failures.append(error) }
            }
            throw closest(failures, path: path, value: shown(value))
        case .oneOf(let schemas):
            var failures: [SchemaValidationError] = []
            var matches: [Int] = []
            for (i, schema) in schemas.enumerated() {
                do { try check(value, against: schema, path: path, depth: depth + 1); matches.append(i) }
                catch { failures.append(error) }
            }
            if matches.isEmpty { throw closest(failures, path: path, value: shown(value)) }
            if matches.count > 1 {
                throw fail("matches alternatives \(matches.map(String.init).joined(separator: " and ")) of a oneOf; exactly one must match")
            }
        case .enumeration(let values):
            guard values.contains(value) else { throw fail("\(shown(value)) is not one of \(values.map(shown).joined(separator: ", "))") }
        case .constant(let constant):
            guard value == constant else { throw fail("expected \(shown(constant)), found \(shown(value))") }
        case .reference(let name):
            guard let target = definitions[name] else { throw fail("the schema refers to an undefined definition \"\(name)\"") }
            try check(value, against: target, path: path, depth: depth + 1)
        case .formatted(let format):
            guard case .string(let s) = value else { throw mismatch("a string") }
            if (try? Regex(format.pattern).matchingSemantics(.unicodeScalar).wholeMatch(in: s)) == nil { throw fail("\(shown(value)) is not a \(format.rawValue)") }
        case .dictionary(let values, let maxProperties):
            guard case .object(let object) = value else { throw mismatch("an object") }
            if let maxProperties, object.count > maxProperties { throw fail("has \(object.count) properties, more than the maximum \(maxProperties)") }
            for (key, member) in object { try check(member, against: values, path: "\(path).\(key)", depth: depth + 1) }
        case .tuple(let prefix, let rest, let maxItems):
            guard case .array(let elements) = value else { throw mismatch("an array") }
            if elements.count < prefix.count { throw fail("has \(elements.count) items, fewer than the tuple's \(prefix.count)") }
            if let maxItems, elements.count > maxItems { throw fail("has \(elements.count) items, more than the maximum \(maxItems)") }
            if rest == nil, elements.count > prefix.count { throw fail("has \(elements.count) items, more than the tuple's \(prefix.count)") }
            for (i, element) in elements.enumerated() {
                guard let schema = i < prefix.count ? prefix[i] : rest else { break }
                try check(element, against: schema, path: "\(path)[\(i)]", depth: depth + 1)
            }
        case .anyValue:
            break
        }
    }

    /// The failure of the alternative that got furthest into the value (the longest path), which
    /// is nearly always the one the value was meant to be; several equally far are listed.
    private func closest(_ failures: [SchemaValidationError], path: String, value: String) -> SchemaValidationError {
        let telling = failures.contains { !$0.isTypeMismatch } ? failures.filter { !$0.isTypeMismatch } : failures
        let deepest = telling.map(\.path.count).max() ?? 0
        let best = telling.filter { $0.path.count == deepest }
        if best.count == 1, let only = best.first { return only }
        let reasons = best.map(\.reason).joined(separator: "; or ")
        return SchemaValidationError(path: path, reason: "\(value) matches none of the alternatives: \(reasons)")
    }
}
