import Foundation
import LocalModel

/// vLLM's `/v1/completions` (OpenAI's text completions, which any OpenAI-compatible server
/// takes), with vLLM's own fields: `structured_outputs.grammar` for a grammar (vLLM 0.12 and
/// later; its xgrammar backend reads GBNF), `skip_special_tokens: false` so markup that is one
/// special token (Qwen's `<tool_call>`) reaches the text the session parses, and
/// `stream_options.include_usage` for the token counts.
///
/// What is constrained: vLLM has no lazy grammar (one that waits for a trigger in free text),
/// so a round whose grammar is immediate is constrained from its first token (the first,
/// required search call; guided generation), and a round whose grammar is lazy (a call the
/// model may write after text, an answer's citations) runs free: the session still reads and
/// checks what it writes, and a call that does not parse goes back to the model as an error.
struct VLLMCompletion: CompletionAPI {
    let model: String
    /// The endpoint's URL, named in errors.
    let url: URL

    var path: String { "/v1/completions" }

    func body(prompt: PromptInput, parameters: GenerationParameters, preserving: [String]) throws(OpenAICompatibleModelError) -> JSONObject {
        var body: JSONObject = ["model": .string(model), "prompt": prompt.json, "max_tokens": .int(parameters.maximumTokens),
                                "stream": true, "stream_options": ["include_usage": true],
                                "stop": .array(parameters.stopStrings.map(JSONValue.string)),
                                "skip_special_tokens": false, "spaces_between_special_tokens": false]
        switch parameters.sampling.mode {
        case .greedy:
            body["temperature"] = 0
        case .random(let topK, let topP, let minP, let temperature, let seed):
            body["temperature"] = .double(Double(temperature))
            body["top_k"] = .int(topK ?? -1)
            body["top_p"] = .double(Double(topP ?? 1))
            body["min_p"] = .double(Double(minP ?? 0))
            body["seed"] = .int(Int(seed))
        }
        if parameters.sampling.repetitionPenalty != 1 { body["repetition_penalty"] = .double(Double(parameters.sampling.repetitionPenalty)) }
        if let grammar = parameters.grammar, grammar.activation == .immediate {
            body["structured_outputs"] = ["grammar": .string(GrammarText.rootedAtRoot(grammar))]
        }
        return body
    }

    func prefillBody(prompt: PromptInput) -> JSONObject {
        ["model": .string(model), "prompt": prompt.json, "max_tokens": 1, "temperature": 0]
    }

    /// A chunk: `choices[0].text` while generating, `finish_reason` ("stop" or "length") and
    /// `stop_reason` (the stop string, or a token id) at the end; then a chunk with `usage`
    /// alone, and `[DONE]`.
    func read(_ event: String, into progress: inout CompletionProgress) throws(OpenAICompatibleModelError) -> String {
        if event.trimmingCharacters(in: .whitespaces) == "[DONE]" {
            progress.isFinished = true
            return ""
        }
        guard let json = try? JSONValue(parsing: event, duplicateKeys: .lastWins) else {
            throw .unreadableAnswer(url: url.absoluteString, reason: "an event that is not JSON: \(event.prefix(200))")
        }
        if let error = json["error"], !error.isNull {
            throw ServerEndpoint.error(status: error["code"]?.intValue ?? 500, text: json.jsonString, url: url, keySent: false)
        }
        if let usage = json["usage"], !usage.isNull {
            progress.promptTokens = usage["prompt_tokens"]?.intValue
            progress.cachedTokens = usage["prompt_tokens_details"]?["cached_tokens"]?.intValue
            progress.generatedTokens = usage["completion_tokens"]?.intValue
        }
        guard let choice = json["choices"]?[0] else { return "" }
        let text = choice["text"]?.stringValue ?? ""
        if !text.isEmpty { progress.textEvents += 1 }
        switch choice["finish_reason"]?.stringValue {
        case "length"?:
            progress.stopReason = .maximumTokens
        case "stop"?:
            progress.stopReason = choice["stop_reason"]?.stringValue.map { .stopString($0) } ?? .endOfGeneration
        default:
            break
        }
        return text
    }
}
