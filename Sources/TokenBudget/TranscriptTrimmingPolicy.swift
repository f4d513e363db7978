/// How a growing transcript is cut down to fit a context window, oldest material first.
///
/// The policy, in plain words:
/// 1. If the request fits, nothing changes.
/// 2. Tool exchanges go first, oldest first. An exchange is a `toolCalls` entry with the
///    `toolOutput` entries that directly follow it (a `toolOutput` with no call before it is an
///    exchange of its own). If cutting the exchange's largest output down to its head is enough
///    to fit, and that head keeps at least ``minimumKeptHeadTokens`` tokens, the output is
///    truncated: its head stays, followed by "… [truncated: N of M tokens omitted]". Otherwise
///    the whole exchange is dropped, call and outputs together, so no call is left without its
///    output and no output without its call.
/// 3. Then whole turns go, oldest first. A turn is a `prompt` entry and everything after it up to
///    the next `prompt` (entries before the first prompt form a turn of their own).
/// 4. Never touched: the instructions, the tool definitions, the new prompt, the answer reserve,
///    and transcript entries of kind `instructions`. If these alone do not fit, trimming throws
///    ``TokenBudgetError/essentialsExceedContextWindow(_:)``.
///
/// The same request, window and counter always give the same result. The template overhead is
/// counted once, for the untrimmed request, and kept: dropping entries also drops their role
/// markers, so the kept figure can only overstate what the trimmed request needs.
public struct TranscriptTrimmingPolicy: Sendable, Hashable {
    /// The smallest head worth keeping of a truncated tool output; below it the exchange is
    /// dropped instead, since a few tokens of a search result mislead more than they help.
    public var minimumKeptHeadTokens: Int

    public init(minimumKeptHeadTokens: Int = 32) {
        self.minimumKeptHeadTokens = minimumKeptHeadTokens
    }

    /// Trims `request`'s transcript by this policy until it fits `window`, counting with `counter`.
    public func trim(_ request: BudgetRequest, toFit window: ContextWindow,
                     counter: some TokenCounter) throws -> TrimmedRequest
    {
        let report = try BudgetReport(for: request, in: window, counter: counter)
        if report.fits { return TrimmedRequest(request: request, report: report, actions: []) }

        var entries: [BudgetRequest.Entry?] = request.transcript
        var entryTokens = report.sections.filter { $0.kind == .transcriptEntry }.map(\.tokens)
        var total = report.totalTokens
        var actions: [TrimAction] = []
        func drop(_ index: Int) {
            guard let entry = entries[index] else { return }
            actions.append(.dropped(entryID: entry.id, kind: entry.kind, tokens: entryTokens[index]))
            total -= entryTokens[index]
            entries[index] = nil
        }

        for exchange in Self.toolExchanges(in: request.transcript) where total > window.tokens {
            let outputs = exchange.filter { request.transcript[$0].kind == .toolOutput }
            let largest = outputs.max { entryTokens[$0] < entryTokens[$1] }  // ties: the oldest
            if let index = largest, let entry = entries[index],
               let cut = try truncation(of: entry, tokens: entryTokens[index],
                                        toAtMost: entryTokens[index] - (total - window.tokens), counter: counter)
            {
                actions.append(.truncated(entryID: entry.id, originalTokens: entryTokens[index], keptTokens: cut.headTokens))
                total -= entryTokens[index] - cut.tokens
                entryTokens[index] = cut.tokens
                entries[index]?.text = cut.text
            } else {
                exchange.forEach(drop)
            }
        }
        for turn in Self.turns(in: request.transcript) where total > window.tokens {
            turn.forEach(drop)
        }

        var trimmed = request
        trimmed.transcript = entries.compactMap { $0 }
        trimmed.templateOverhead = .tokens(report.tokens(of: .templateOverhead))
        let trimmedReport = try BudgetReport(for: trimmed, in: window, counter: counter)
        guard trimmedReport.fits else {
            throw TokenBudgetError.essentialsExceedContextWindow(BudgetOverflow(trimmedReport))
        }
        return TrimmedRequest(request: trimmed, report: trimmedReport, actions: actions)
    }

    /// The marker appended to a truncated tool output.
    static func truncationMarker(omitted: Int, of total: Int) -> String {
        "\n… [truncated: \(NumberText.grouped(omitted)) of \(NumberText.grouped(total)) tokens omitted]"
    }

    /// The longest head of `entry` that, with the marker, costs at most `budget` tokens; nil when
    /// that head would be shorter than `minimumKeptHeadTokens`. Binary search over characters.
    private func truncation(of entry: BudgetRequest.Entry, tokens: Int, toAtMost budget: Int,
                            counter: some TokenCounter) throws -> (text: String, tokens: Int, headTokens: Int)?
    {
        let characters = Array(entry.text)
        let label = "transcript's tool output \(entry.id)"
        var best: (text: String, tokens: Int, headTokens: Int)?
        var low = 0
        var high = characters.count
        while low <= high {
            let length = (low + high) / 2
            let head = String(characters[..<length])
            let headTokens = try counter.checkedCount(of: head, for: label)
            let text = head + Self.truncationMarker(omitted: tokens - headTokens, of: tokens)
            let textTokens = try counter.checkedCount(of: text, for: label)
            if textTokens <= budget {
                best = (text, textTokens, headTokens)
                low = length + 1
            } else {
                high = length - 1
            }
        }
        guard let best, best.headTokens >= max(1, minimumKeptHeadTokens) else { return nil }
        return best
    }

    /// Indices of each tool exchange, oldest first: a `toolCalls` entry and the `toolOutput`
    /// entries directly after it, or a lone `toolOutput`.
    static func toolExchanges(in transcript: [BudgetRequest.Entry]) -> [[Int]] {
        var exchanges: [[Int]] = []
        var isOpen = false
        for (index, entry) in transcript.enumerated() {
            switch entry.kind {
            case .toolCalls:
                exchanges.append([index])
                isOpen = true
            case .toolOutput where isOpen:
                exchanges[exchanges.count - 1].append(index)
            case .toolOutput:
                exchanges.append([index])
                isOpen = true
            case .instructions, .prompt, .response:
                isOpen = false
            }
        }
        return exchanges
    }

    /// Indices of each turn, oldest first: a `prompt` and what follows it up to the next prompt.
    /// `instructions` entries belong to no turn, so they are never dropped.
    static func turns(in transcript: [BudgetRequest.Entry]) -> [[Int]] {
        var turns: [[Int]] = []
        for (index, entry) in transcript.enumerated() where entry.kind != .instructions {
            if entry.kind == .prompt || turns.isEmpty {
                turns.append([index])
            } else {
                turns[turns.count - 1].append(index)
            }
        }
        return turns
    }
}
