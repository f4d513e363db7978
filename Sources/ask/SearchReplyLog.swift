import SearchTool

/// Collects a search tool's `searchResults` stream so the trace can say how many results each
/// query had at the moment its output reaches the transcript. Replies are sent before the tool
/// returns, so they are normally already here; a short timeout covers a query that failed
/// without replying.
actor SearchReplyLog {
    private var replies: [Int: [SearchReply]] = [:]
    private var complete: Set<Int> = []
    private var waiters: [Int: [CheckedContinuation<[SearchReply]?, Never>]] = [:]
    private var finished = false

    /// Reads the tool's stream until it ends (call `finish()` on the tool to end it).
    func consume(_ stream: AsyncStream<SearchReply>) async {
        for await reply in stream { add(reply) }
        finished = true
        for (token, continuations) in waiters {
            continuations.forEach { $0.resume(returning: replies[token]) }
        }
        waiters = [:]
    }

    /// Every reply of every query so far, in order of queries.
    var all: [SearchReply] { replies.keys.sorted().flatMap { replies[$0] ?? [] } }

    /// The replies of query number `token` (1-based, in call order), waiting up to `timeout`.
    func replies(forQuery token: Int, timeout: Duration = .seconds(2)) async -> [SearchReply]? {
        if complete.contains(token) || finished { return replies[token] }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.expire(token)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { waiters[token, default: []].append($0) }
    }

    private func add(_ reply: SearchReply) {
        let token = reply.queryToken.value
        replies[token, default: []].append(reply)
        if reply.status == .complete {
            complete.insert(token)
            waiters.removeValue(forKey: token)?.forEach { $0.resume(returning: replies[token]) }
        }
    }

    private func expire(_ token: Int) {
        waiters.removeValue(forKey: token)?.forEach { $0.resume(returning: replies[token]) }
    }
}

extension SearchPipelineData {
    /// How many results this data stands for: items, groups' items, a count, table rows.
    var resultCount: Int {
        switch self {
        case .items(let items): items.count
        case .scoredItems(let items): items.count
        case .groupedItems(let groups): groups.reduce(0) { $0 + $1.count }
        case .count(let count): count.value
        case .table(let table): table.rows.count
        case .statistic(let statistic): statistic.sampleCount
        case .text: 1
        }
    }
}
