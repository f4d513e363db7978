import Foundation
import LocalModel
import Testing

@Suite("JSONValue: parsing, serializing, coding")
struct JSONValueTests {
    @Test(arguments: [
        "null", "true", "false", "0", "-12", "9223372036854775807", "1.5", "-0.25", "1e+300", "\"\"",
        #""a \"quoted\" \\ line\nbreak \u0001 é ✓ 😀""#, "[]", "{}", #"[1,"two",null,[true,{"k":[]}]]"#,
        #"{"z":1,"a":{"y":[1,2.5],"b":null},"m":"x"}"#,
    ])
    func parseSerializeRoundTrips(_ text: String) throws {
        let value = try JSONValue(parsing: text)
        let serialized = value.jsonString
        let reparsed = try JSONValue(parsing: serialized)
        #expect(reparsed == value)
        #expect(reparsed.jsonString == serialized, "serialization is not a fixed point")
        // Foundation's parser agrees on what the text means.
        let foundation = try JSONSerialization.jsonObject(with: Data(serialized.utf8), options: .fragmentsAllowed)
        let original = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        #expect(NSDictionary(dictionary: ["v": foundation]) == NSDictionary(dictionary: ["v": original]))
    }

    @Test func keyOrderIsKeptAsWritten() throws {
        let value = try JSONValue(parsing: #"{"zebra": 1, "apple": 2, "mango": {"b": 1, "a": 2}}"#)
        #expect(value.objectValue?.keys == ["zebra", "apple", "mango"])
        #expect(value["mango"]?.objectValue?.keys == ["b", "a"])
        #expect(value.jsonString.firstRange(of: "zebra")!.lowerBound < value.jsonString.firstRange(of: "apple")!.lowerBound)
    }

    @Test func integersStayExactAndDistinctFromDoubles() throws {
        let big = try JSONValue(parsing: "9007199254740993")  // 2^53 + 1: not representable as a Double
        #expect(big == .int(9_007_199_254_740_993))
        #expect(big.jsonString == "9007199254740993")
        #expect(try JSONValue(parsing: "2.0") == .double(2))
        #expect(try JSONValue(parsing: "2.0").jsonString == "2.0")
        #expect(JSONValue.int(2) == JSONValue.double(2.0), "JSON equality is numeric")
        #expect(Set<JSONValue>([.int(2), .double(2.0)]).count == 1, "hash agrees with equality")
    }

    @Test(arguments: [1e-6, 0.1, 123456.789, 1e20, -3.5e-3, 5e-7, 1e21, 0.000123])
    func doublesSerializeAsReparsableText(_ d: Double) throws {
        let text = JSONValue.double(d).jsonString
        #expect(try JSONValue(parsing: text).doubleValue == d, "\(text)")
    }

    @Test func objectEqualityIgnoresOrder() throws {
        #expect(try JSONValue(parsing: #"{"a":1,"b":2}"#) == JSONValue(parsing: #"{"b":2,"a":1}"#))
        #expect(try JSONValue(parsing: #"{"a":1}"#) != JSONValue(parsing: #"{"a":1,"b":2}"#))
    }

    @Test(arguments: [
        ("", 0, "a JSON value"), ("[1,]", 3, "a JSON value"), ("{\"a\":1,}", 7, "a string key"),
        ("01", 1, "no leading zeros"), ("[1 2]", 3, "',' or ']'"), ("{\"a\" 1}", 5, "':'"),
        ("\"abc", 4, "closing"), ("\"a\tb\"", 2, "escaped control"), ("\"\\x\"", 2, "one of"),
        ("\"\\ud800\"", 7, "low surrogate"), ("nul", 0, "'null'"), ("1.", 2, "digit after '.'"),
        ("NaN", 0, "a JSON value"), ("{\"a\":1,\"a\":2}", 7, "duplicate"), ("1 2", 2, "end of text"),
        ("[\n  1,\n  x]", 9, "a JSON value"),
    ] as [(String, Int, String)])
    func invalidTextIsRefusedWithPositionAndExpectation(_ text: String, _ offset: Int, _ expected: String) {
        #expect {
            try JSONValue(parsing: text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.offset == offset && error.expected.contains(expected)
        }
    }

    @Test func errorReportsLineAndColumn() {
        #expect {
            try JSONValue(parsing: "[\n  1,\n  x]")
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.line == 3 && error.column == 3 && error.found == #""x]""#
        }
    }

    @Test func deepNestingIsRefusedNotCrashed() {
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
    }

    @Test func literalsAndSubscripts() {
        let value: JSONValue = ["name": "Ann", "tags": ["a", "b"], "age": 30, "score": 9.5, "ok": true, "none": nil]
        #expect(value["name"]?.stringValue == "Ann")
        #expect(value["tags"]?[1]?.stringValue == "b")
        #expect(value["tags"]?[2] == nil)
        #expect(value["age"]?.intValue == 30)
        #expect(value["score"]?.doubleValue == 9.5)
        #expect(value["ok"]?.boolValue == true)
        #expect(value["none"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value.jsonString == #"{"name":"Ann","tags":["a","b"],"age":30,"score":9.5,"ok":true,"none":null}"#)
    }

    struct Trip: Codable, Equatable {
        var destination: String
        var nights: Int
        var budget: Double?
        var stops: [String]
    }

    @Test func decodesIntoSwiftTypesAndEncodesBack() throws {
        let value = try JSONValue(parsing: #"{"destination":"Oslo","nights":3,"stops":["Bergen"]}"#)
        let trip = try value.decode(as: Trip.self)
        #expect(trip == Trip(destination: "Oslo", nights: 3, budget: nil, stops: ["Bergen"]))
        let encoded = try JSONValue(encoding: trip)
        #expect(try encoded.decode(as: Trip.self) == trip)
        #expect(encoded.objectValue?.keys == ["destination", "nights", "stops"].sorted())
    }

    @Test func decodingMismatchNamesTypeAndPath() throws {
        let value = try JSONValue(parsing: #"{"destination":"Oslo","nights":"three","stops":[]}"#)
        #expect {
            try value.decode(as: Trip.self)
        } throws: { error in
            guard case .cannotDecode(let type, let reason, _) = error as? JSONCodingError else { return false }
            return type == "Trip" && reason.contains("nights")
        }
    }

    @Test func encodingANonFiniteDoubleThrows() {
        #expect(throws: JSONCodingError.self) { try JSONValue(encoding: ["x": Double.nan]) }
    }

    @Test func codableConformanceRoundTripsThroughFoundation() throws {
        let value: JSONValue = ["a": [1, 2.5, "s", nil, false], "b": ["c": "d"]]
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
