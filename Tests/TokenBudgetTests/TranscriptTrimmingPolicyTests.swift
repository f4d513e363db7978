import Testing
import TokenBudget

@Suite struct TranscriptTrimmingPolicyTests {
    let counter = WordCounter()
    let policy = TranscriptTrimmingPolicy()
    var fullSize: Int { Fixture.fixed + 3 * Fixture.turn }

    /// The kept transcript's ids, in order.
    func ids(_ trimmed: TrimmedRequest) -> [String] { trimmed.request.transcript.map(\.id) }

    @Test func aRequestThatFitsIsLeftAlone() throws {
        let request = Fixture.request()
        let trimmed = try policy.trim(request, toFit: .k4, counter: counter)
        #expect(trimmed.request == request)
        #expect(trimmed.actions.isEmpty)
        #expect(trimmed.report == (try BudgetReport(for: request, in: .k4, counter: counter)))
    }

    @Test func dropsTheOldestToolExchangeBeforeAnyTurn() throws {
        // Over by far more than a truncated output could save: the first exchange goes whole.
        let window = ContextWindow(tokens: fullSize - Fixture.toolOutput)
        let trimmed = try TranscriptTrimmingPolicy(minimumKeptHeadTokens: Fixture.toolOutput)
            .trim(Fixture.request(), toFit: window, counter: counter)
        #expect(trimmed.actions == [
            .dropped(entryID: "c1", kind: .toolCalls, tokens: Fixture.toolCalls),
            .dropped(entryID: "o1", kind: .toolOutput, tokens: Fixture.toolOutput),
        ])
        #expect(ids(trimmed) == ["p1", "r1", "p2", "c2", "o2", "r2", "p3", "c3", "o3", "r3"])
        #expect(trimmed.report.fits)
        #expect(trimmed.report.totalTokens == fullSize - Fixture.toolCalls - Fixture.toolOutput)
    }

    @Test func dropsTurnsOnlyOnceEveryToolExchangeIsGone() throws {
        let exchanges = 3 * (Fixture.toolCalls + Fixture.toolOutput)
        let window = ContextWindow(tokens: fullSize - exchanges - 1)
        let trimmed = try policy.trim(Fixture.request(), toFit: window, counter: counter)
        #expect(ids(trimmed) == ["p2", "r2", "p3", "r3"])
        let dropped = trimmed.actions.map { action -> String in
            guard case .dropped(let id, _, _) = action else { return "not a drop: \(action)" }
            return id
        }
        #expect(dropped == ["c1", "o1", "c2", "o2", "c3", "o3", "p1", "r1"])
        #expect(trimmed.report.fits)
    }

    @Test func neverDropsInstructionsToolsOrTheNewPrompt() throws {
        var request = Fixture.request()
        request.transcript.insert(.init(id: "i0", kind: .instructions, text: words(9, "setup")), at: 0)
        let essentials = Fixture.fixed + 9
        let trimmed = try policy.trim(request, toFit: ContextWindow(tokens: essentials), counter: counter)
        #expect(ids(trimmed) == ["i0"])
        #expect(trimmed.request.instructions == request.instructions)
        #expect(trimmed.request.tools == request.tools)
        #expect(trimmed.request.prompt == request.prompt)
        #expect(trimmed.request.reservedAnswerTokens == request.reservedAnswerTokens)
        #expect(trimmed.report.totalTokens == essentials)
        #expect(trimmed.report.remainingTokens == 0)
    }

    @Test func truncatesAToolOutputWhenItsHeadIsEnough() throws {
        let over = 50
        let window = ContextWindow(tokens: fullSize - over)
        let request = Fixture.request()
        let trimmed = try policy.trim(request, toFit: window, counter: counter)
        #expect(trimmed.report.fits)
        #expect(ids(trimmed) == request.transcript.map(\.id), "nothing dropped")
        #expect(trimmed.actions.count == 1)
        guard case .truncated(let id, let original, let kept) = trimmed.actions.first else {
            Issue.record("expected a truncation, got \(trimmed.actions)")
            return
        }
        #expect(id == "o1")
        #expect(original == Fixture.toolOutput)

        let output = try #require(trimmed.request.transcript.first { $0.id == "o1" }).text
        let marker = try #require(output.range(of: "\n… [truncated: "))
        let head = String(output[..<marker.lowerBound])
        let originalText = try #require(request.transcript.first { $0.id == "o1" }).text
        #expect(originalText.hasPrefix(head))
        #expect(try counter.countTokens(in: head) == kept)
        #expect(kept >= policy.minimumKeptHeadTokens)
        #expect(output.hasSuffix("[truncated: \(original - kept) of \(original) tokens omitted]"))
        // Only the cut output changed; its call is still there, right before it.
        let changed = zip(trimmed.request.transcript, request.transcript).filter { $0 != $1 }.map(\.0.id)
        #expect(changed == ["o1"])
    }

    @Test func truncationKeepsAsMuchHeadAsFits() throws {
        // One token per character: the kept head should leave almost nothing unused.
        let window = ContextWindow(tokens: try BudgetReport(for: Fixture.request(), in: .k32,
                                                            counter: CharacterCounter()).totalTokens - 300)
        let trimmed = try policy.trim(Fixture.request(), toFit: window, counter: CharacterCounter())
        #expect(trimmed.actions.count == 1)
        #expect(trimmed.report.fits)
        #expect(trimmed.report.remainingTokens < 5)
    }

    @Test func dropsInsteadOfTruncatingWhenTheHeadWouldBeTooSmall() throws {
        // Saving 190 of a 200-token output leaves a head under the default minimum of 32.
        let window = ContextWindow(tokens: fullSize - 190)
        let trimmed = try policy.trim(Fixture.request(), toFit: window, counter: counter)
        #expect(trimmed.actions == [
            .dropped(entryID: "c1", kind: .toolCalls, tokens: Fixture.toolCalls),
            .dropped(entryID: "o1", kind: .toolOutput, tokens: Fixture.toolOutput),
        ])
    }

    @Test func neverSeparatesACallFromItsOutput() throws {
        var request = Fixture.request()
        // A second exchange in turn 2 with two outputs for one calls entry.
        request.transcript.insert(contentsOf: [
            .init(id: "c2b", kind: .toolCalls, text: words(6, "again")),
            .init(id: "o2b", kind: .toolOutput, text: words(40, "more")),
            .init(id: "o2c", kind: .toolOutput, text: words(70, "most")),
        ], at: 7)
        let full = try BudgetReport(for: request, in: .k32, counter: counter).totalTokens
        for size in stride(from: Fixture.fixed, through: full, by: 7) {
            let trimmed = try policy.trim(request, toFit: ContextWindow(tokens: size), counter: counter)
            #expect(trimmed.report.fits)
            let kinds = trimmed.request.transcript.map(\.kind)
            for (index, kind) in kinds.enumerated() {
                if kind == .toolCalls {
                    #expect(kinds.indices.contains(index + 1) && kinds[index + 1] == .toolOutput,
                            "call without output at window \(size): \(ids(trimmed))")
                }
                if kind == .toolOutput {
                    #expect(index > 0 && [.toolCalls, .toolOutput].contains(kinds[index - 1]),
                            "output without call at window \(size): \(ids(trimmed))")
                }
            }
        }
    }

    @Test func sameInputGivesTheSameResult() throws {
        let windows: [ContextWindow] = [900, 700, 500, 400]
        for window in windows {
            let first = try policy.trim(Fixture.request(), toFit: window, counter: counter)
            let second = try policy.trim(Fixture.request(), toFit: window, counter: counter)
            #expect(first == second)
        }
    }

    @Test func failsWithATypedErrorWhenTheEssentialsDoNotFit() throws {
        var request = Fixture.request()
        request.tools[0].schema = words(5100, "field")
        let error = try #require(throws: TokenBudgetError.self) {
            try policy.trim(request, toFit: .k4, counter: counter)
        }
        guard case .essentialsExceedContextWindow(let overflow) = error else {
            Issue.record("expected essentialsExceedContextWindow, got \(error)")
            return
        }
        #expect(overflow.totalTokens == Fixture.fixed - Fixture.searchSchema + 5100)
        #expect(overflow.largestSections.first?.label == "spotlight_search tool's schema")
        #expect(error.description.contains("spotlight_search tool's schema alone is 5,100 tokens"))
    }

    @Test func trimActionsDescribeThemselves() {
        let drop = TrimAction.dropped(entryID: "o1", kind: .toolOutput, tokens: 1200)
        let cut = TrimAction.truncated(entryID: "o2", originalTokens: 2000, keptTokens: 766)
        #expect(drop.description.contains("o1") && drop.description.contains("1,200 tokens"))
        #expect(cut.description.contains("o2") && cut.description.contains("766 of 2,000"))
    }
}
