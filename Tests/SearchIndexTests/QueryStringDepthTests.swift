import Foundation
import Testing
@testable import SearchIndex

/// No query string, however long or deeply nested, may overflow the stack: each one is parsed on a
/// thread with a 512 KiB stack (Apple's default for secondary threads), where before the nesting
/// limit about 965 parentheses or 2,100 `!` crashed the process.
@Suite struct QueryStringDepthTests {
    static let now = Date(timeIntervalSince1970: 1_714_566_600) // 2024-05-01T12:30:00Z
    static let limit = QueryStringParser.maximumNestingDepth

    /// Parses `string` on a fresh thread with a 512 KiB stack; the predicate is also dropped there,
    /// so a deep tree's release would crash on the small stack too.
    static func parseOnSmallStack(_ string: String) async -> Result<String, QueryStringError> {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let result: Result<String, QueryStringError>
                do throws(QueryStringError) {
                    let predicate = try QueryStringParser(now: now, timeZone: Corpus.utc).parse(string)
                    result = .success(String(describing: predicate).prefix(80).description)
                } catch {
                    result = .failure(error)
                }
                continuation.resume(returning: result)
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    static func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

    /// Deeply nested shapes of every recursive construct, each with the offset at which the parser
    /// must stop: the first opening that goes past `maximumNestingDepth`.
    static let deepCases: [(name: String, input: String, position: Int)] = {
        let n = 100_000
        let comparison = "rating > 1"
        return [
            ("parentheses", repeated("(", n) + comparison + repeated(")", n), limit),
            ("unclosed parentheses", repeated("(", n), limit),
            ("not", repeated("!", n) + comparison, limit),
            ("not with spaces", repeated("! ", n) + comparison, 2 * limit),
            ("not and parentheses", repeated("!(", n) + comparison + repeated(")", n), limit),
            ("or chains in parentheses", repeated("(rating > 1 || ", n) + comparison + repeated(")", n), 15 * limit),
            ("and chains in parentheses", repeated("(rating > 1 && ", n) + comparison + repeated(")", n), 15 * limit),
            ("InRange around InRange", repeated("InRange(", n) + "rating, 1, 2" + repeated(")", n), -1),
            ("InRange in parentheses", repeated("(InRange(rating, 1, 2) || ", n) + comparison + repeated(")", n), 26 * limit),
            ("$time inside $time", "startDate > " + repeated("$time.today(", n) + repeated(")", n), -1),
            ("$time.iso inside $time.iso", "startDate > " + repeated("$time.iso(", n) + repeated(")", n), -1),
        ]
    }()

    @Test(arguments: 0..<deepCases.count)
    func deepNestingIsATypedErrorOnA512KiBStack(caseIndex: Int) async {
        let (name, input, position) = Self.deepCases[caseIndex]
        let result = await Self.parseOnSmallStack(input)
        guard case .failure(let error) = result else {
            Issue.record("\(name): parsed 100,000-deep input")
            return
        }
        if position >= 0 {
            #expect(error.position == position, "\(name): \(error)")
            #expect(error.expected.contains("at most \(Self.limit) levels of nesting"), "\(name): \(error)")
        }
        #expect(error.description.contains("character \(error.position)"), "\(name): \(error)")
    }

    @Test func nestingUpToTheLimitParses() async throws {
        let limit = Self.limit
        let parenthesised = Self.repeated("(", limit) + "rating > 1" + Self.repeated(")", limit)
        let atLimit = await Self.parseOnSmallStack(parenthesised)
        #expect(throws: Never.self) { try atLimit.get() }
        let notsAtLimit = await Self.parseOnSmallStack(Self.repeated("!", limit) + "rating > 1")
        #expect(throws: Never.self) { try notsAtLimit.get() }
        // One more level is refused, at the opening that is one too many.
        let over = await Self.parseOnSmallStack("(" + parenthesised + ")")
        guard case .failure(let error) = over else { Issue.record("parsed \(limit + 1) levels"); return }
        #expect(error.position == limit)
    }

    /// Long flat chains are not nesting: they parse (iteratively) into one flat and/or.
    @Test func longFlatChainsParse() async throws {
        let chain = Array(repeating: "rating > 1", count: 50_000).joined(separator: " && ")
        let predicate = try QueryStringParser(now: Self.now, timeZone: Corpus.utc).parse(chain)
        guard case .and(let parts) = predicate else { Issue.record("not a flat and"); return }
        #expect(parts.count == 50_000)
        let result = await Self.parseOnSmallStack(Array(repeating: "rating > 1", count: 50_000).joined(separator: " || "))
        #expect(throws: Never.self) { try result.get() }
    }

    /// Out-of-range offsets and numbers are positioned errors, not silently dropped or infinite.
    @Test(arguments: [
        ("startDate > $time.this_year(9223372036854775807)", 28, "offset"),
        ("startDate > $time.today(99999999999999999999999)", 24, "offset"),
        ("startDate > $time.today(-3652426)", 24, "offset"),
        ("startDate > $time.now(-999999999999999)", 22, "offset"),
        ("startDate > $time.this_month(200000)", 29, "offset"),
        ("fileSize > 1e999", 11, "finite"),
        ("fileSize > -1e400", 11, "finite"),
        ("InRange(fileSize, 0, 1e309)", 21, "finite"),
        (#"fileSize > "1e999""#, 11, "finite"),
    ])
    func outOfRangeValuesArePositionedErrors(input: String, position: Int, expected: String) {
        do {
            let predicate = try QueryStringParser(now: Self.now, timeZone: Corpus.utc).parse(input)
            Issue.record("\(input) parsed as \(predicate)")
        } catch {
            #expect(error.position == position, "\(input): \(error)")
            #expect(error.expected.contains(expected), "\(input): \(error)")
        }
    }

    @Test func offsetsAtTheBoundStillParse() throws {
        let parser = QueryStringParser(now: Self.now, timeZone: Corpus.utc)
        guard case .compare(_, _, .date(let date)) = try parser.parse("startDate > $time.this_year(-2000)") else {
            Issue.record("not a date comparison"); return
        }
        #expect(Calendar(identifier: .gregorian).dateComponents(in: Corpus.utc, from: date).year == 24)
    }
}
