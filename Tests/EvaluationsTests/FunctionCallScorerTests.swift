import Testing
import Evaluations
import LocalModel

@Suite("Function-call AST scoring")
struct FunctionCallScorerTests {
    typealias Acceptable = FunctionCallCase.AcceptableValues
    static let expected = [FunctionCallCase.ExpectedCall(name: "book_table", arguments: [
        "restaurant": Acceptable(values: [.string("Chez Marie"), .string("Marie's")]),
        "people": Acceptable(values: [.int(4)]),
        "minutes_late": Acceptable(values: [.double(2.5)], tolerance: 0.25),
        "terrace": Acceptable(values: [.bool(true)], optional: true),
        "notes": Acceptable(values: [], optional: true),
        "guests": Acceptable(values: [.array([.string("Ana"), .string("Ben")])], optional: true),
        "contact": Acceptable(values: [.object(["name": .string("Ana"), "phone": .int(123)])], optional: true),
    ])]

    func score(_ arguments: JSONObject, name: String = "book_table") -> FunctionCallScorer.Mismatch? {
        FunctionCallScorer().mismatch(toolName: name, arguments: .object(arguments), against: Self.expected)
    }

    static let right: JSONObject = ["restaurant": "  chez MARIE ", "people": 4, "minutes_late": 2.5]

    @Test func aRightCallMatches() {
        #expect(score(Self.right) == nil)
        var alternative = Self.right
        alternative["restaurant"] = "marie's"
        alternative["people"] = 4.0
        #expect(score(alternative) == nil)
    }

    @Test func theWrongFunctionDoesNot() {
        #expect(score(Self.right, name: "book_hotel") == .wrongFunction("book_hotel"))
    }

    @Test func aMissingRequiredArgumentDoesNot() {
        var call = Self.right
        call["people"] = nil
        #expect(score(call) == .missingArgument("people"))
    }

    @Test func anExtraArgumentDoesNot() {
        var call = Self.right
        call["smoking"] = false
        #expect(score(call) == .unexpectedArgument("smoking"))
    }

    @Test func aValueOutsideTheAcceptableOnesDoesNot() {
        var call = Self.right
        call["people"] = 5
        #expect(score(call) == .unacceptableValue(argument: "people", value: 5))
        call = Self.right
        call["restaurant"] = "Chez Marius"
        #expect(score(call) == .unacceptableValue(argument: "restaurant", value: "Chez Marius"))
        call = Self.right
        call["people"] = "4"
        #expect(score(call) == .unacceptableValue(argument: "people", value: "4"), "a string is not a number")
    }

    @Test func numbersCompareWithinTheTolerance() {
        var call = Self.right
        call["minutes_late"] = 2.7
        #expect(score(call) == nil)
        call["minutes_late"] = 2.8
        #expect(score(call) == .unacceptableValue(argument: "minutes_late", value: 2.8))
        #expect(FunctionCallScorer().accepts(.double(1e-9), Acceptable(values: [.double(1.0e-9)])))
        #expect(!FunctionCallScorer().accepts(.double(1.0), Acceptable(values: [.double(1e-9)])))
    }

    @Test func optionalArgumentsMayBeAbsentOrAcceptable() {
        var call = Self.right
        call["terrace"] = true
        call["guests"] = ["ana", "Ben "]
        call["contact"] = ["phone": 123, "name": "ANA"]
        #expect(score(call) == nil)
        call["terrace"] = false
        #expect(score(call) == .unacceptableValue(argument: "terrace", value: false))
        call = Self.right
        call["guests"] = ["Ben", "Ana"]
        #expect(score(call) == .unacceptableValue(argument: "guests", value: ["Ben", "Ana"]), "arrays keep their order")
        call = Self.right
        call["contact"] = ["name": "Ana"]
        #expect(score(call) == .unacceptableValue(argument: "contact", value: ["name": "Ana"]), "objects need every member")
        call = Self.right
        call["notes"] = "window seat"
        #expect(score(call) == .unacceptableValue(argument: "notes", value: "window seat"), "no value is acceptable for notes")
    }

    @Test func argumentsThatAreNotAnObjectDoNotMatch() {
        #expect(FunctionCallScorer().mismatch(toolName: "book_table", arguments: .array([]), against: Self.expected) == .argumentsNotAnObject)
    }
}
