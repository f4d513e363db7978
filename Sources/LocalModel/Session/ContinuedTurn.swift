/// The turn `LanguageModelSession.respond(continuingWith:)` goes on with: the transcript's last
/// prompt, the calls of external tools the turn ended with, and the caller's outputs for them,
/// checked to answer exactly those calls, each once.
struct ContinuedTurn {
    /// Where the turn's prompt is in the transcript: where the response's entries start.
    let promptIndex: Int
    /// The prompt as the turn's tools read it (their per-prompt schemas).
    let prompt: Prompt
    /// The outputs, in the order of their calls, each named after its call's tool.
    let outputs: [Transcript.ToolOutput]
    /// The turn's entries after its prompt, with the outputs: what the first round may rest on.
    let entriesSincePrompt: [Transcript.Entry]
    /// Rounds of calls the turn has made so far.
    let toolRounds: Int

    init(_ transcript: Transcript, outputs given: [Transcript.ToolOutput]) throws(LanguageModelSession.GenerationError) {
        guard let promptIndex = transcript.lastIndex(where: { if case .prompt = $0 { true } else { false } }),
              case .prompt(let promptEntry) = transcript[promptIndex] else {
            throw .cannotContinue("the transcript has no prompt whose response could go on")
        }
        let turn = Array(transcript[(promptIndex + 1)...])
        guard let lastCalls = turn.lastIndex(where: { if case .toolCalls = $0 { true } else { false } }),
              case .toolCalls(let calls) = turn[lastCalls] else {
            throw .cannotContinue("the last prompt's response made no calls to answer")
        }
        let answered = Set(turn[(lastCalls + 1)...].map(\.id))
        if turn[(lastCalls + 1)...].contains(where: { if case .toolOutput = $0 { false } else { true } }) {
            throw .cannotContinue("the last prompt's response already went on after its calls")
        }
        let pending = calls.calls.filter { !answered.contains($0.id) }
        guard !pending.isEmpty else { throw .cannotContinue("every call the response ended with has its output already") }
        var outputs: [Transcript.ToolOutput] = []
        for call in pending {
            let matching = given.filter { $0.id == call.id }
            guard matching.count == 1 else {
                throw .cannotContinue(matching.isEmpty ? "no output answers the call \(call.id) (\(call.toolName))"
                                                       : "\(matching.count) outputs answer the call \(call.id) (\(call.toolName)); give one")
            }
            var output = matching[0]
            output.toolName = call.toolName
            outputs.append(output)
        }
        if let stray = given.first(where: { output in !pending.contains { $0.id == output.id } }) {
            let ids = pending.map(\.id).joined(separator: ", ")
            throw .cannotContinue("the output \(stray.id) answers no call the response ended with (those are \(ids))")
        }
        self.promptIndex = promptIndex
        prompt = Prompt(promptEntry.text, attachments: promptEntry.attachments)
        self.outputs = outputs
        entriesSincePrompt = turn + outputs.map { .toolOutput($0) }
        toolRounds = turn.filter { if case .toolCalls = $0 { true } else { false } }.count
    }
}
