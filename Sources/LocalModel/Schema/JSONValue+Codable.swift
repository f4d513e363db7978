import Foundation

extension JSONValue: Codable {
    /// Decodes from any `Decoder`. Object key order follows the decoder's `allKeys`, which most
    /// decoders do not keep; use `JSONValue(parsing:)` on JSON text to keep the written order.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: DynamicKey.self) {
            var object = JSONObject()
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key) }
            self = .object(object)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let i = try? single.decode(Int.self) { self = .int(i) }
            else if let d = try? single.decode(Double.self) { self = .double(d) }
            else { self = .string(try single.decode(String.self)) }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            var keyed = encoder.container(keyedBy: DynamicKey.self)
            for (key, value) in object { try keyed.encode(value, forKey: DynamicKey(key)) }
        case .array(let items):
            var unkeyed = encoder.unkeyedContainer()
            for item in items { try unkeyed.encode(item) }
        case .null: var single = encoder.singleValueContainer(); try single.encodeNil()
        case .bool(let b): var single = encoder.singleValueContainer(); try single.encode(b)
        case .int(let i): var single = encoder.singleValueContainer(); try single.encode(i)
        case .double(let d): var single = encoder.singleValueContainer(); try single.encode(d)
        case .string(let s): var single = encoder.singleValueContainer(); try single.encode(s)
        }
    }

    private struct DynamicKey: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { return nil }
    }

    /// Decodes this value into a Swift type, the way generated content becomes a tool's
    /// arguments or a guided-generation result.
    ///
    /// Goes through JSON text so integers stay exact and every `Decodable` works unchanged.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws(JSONCodingError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(jsonString.utf8))
        } catch let error as DecodingError {
            throw JSONCodingError.cannotDecode(type: String(describing: T.self), reason: JSONCodingError.describe(error), json: jsonString)
        } catch {
            throw JSONCodingError.cannotDecode(type: String(describing: T.self), reason: "\(error)", json: jsonString)
        }
    }

    /// The JSON value of an `Encodable` Swift value; object keys are sorted so the result is
    /// deterministic (the encoder does not report declaration order).
    public init<T: Encodable>(encoding value: T) throws(JSONCodingError) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(value)
        } catch {
            throw JSONCodingError.cannotEncode(type: String(describing: T.self), reason: "\(error)")
        }
        do {
            self = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw JSONCodingError.cannotEncode(type: String(describing: T.self), reason: error.description)
        }
    }
}
