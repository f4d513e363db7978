import Foundation
import LocalModel

/// llama-server's native `/completion`, which takes everything a round needs: the prompt as
/// text or tokens, `n_predict`, `stop`, the sampling fields, `cache_prompt`, and the round's
/// GBNF in `grammar` with `grammar_lazy` and `grammar_triggers`, so a tool call after free text
/// and a citation inside an answer are constrained from their trigger on, as in-process.
///
/// Why not its chat endpoint: it renders the prompt with the server's template and applies a
/// request's `grammar` from the first token, dropping `grammar_lazy` (it sets its own from the
/// template), so the rounds after a search, whose grammar waits for `<tool_call>` or a citation,
/// could not be asked of it. `preserved_tokens` lists the markup the vocabulary spells as one
/// special token (Qwen's `<tool_call>`): the server refuses a trigger word that is one token
/// unless it is preserved, and writes a special token's text into `content` only when it is,
/// so without it the session's parser would never see the call's markers.
struct LlamaServerCompletion: CompletionAPI {
    /// The served model, sent as `model` (a llama-server routing several models needs it).
    let model: String
    /// The endpoint's URL, named in errors.
    let url: URL

    var path: String { "/completion" }

    func body(prompt: PromptInput, parameters: GenerationParameters, preserving: [String]) throws(OpenAICompatibleModelError) -> JSONObject {
        var body: JSONObject = ["model": .string(model), "prompt": prompt.json, "n_predict": .int(parameters.maximumTokens),
                                "cache_prompt": true, "stream": true, "stop": .array(parameters.stopStrings.map(JSONValue.string))]
        Self.addSampling(parameters.sampling, to: &body)
        if !preserving.isEmpty { body["preserved_tokens"] = .array(preserving.map(JSONValue.string)) }
        guard let grammar = parameters.grammar else { return body }
        guard case .lazy(let triggers, let grammarIncludesTrigger, _) = grammar.activation else {
            body["grammar"] = .string(GrammarText.rootedAtRoot(grammar))
            return body
        }
        // the server feeds a lazy grammar from its trigger on; one the session starts after
        // its trigger gets the trigger written into it
        body["grammar"] = .string(grammarIncludesTrigger ? GrammarText.rootedAtRoot(grammar) : GrammarText.startingAtTrigger(grammar, triggers: triggers))
        body["grammar_lazy"] = true
        body["grammar_triggers"] = .array(triggers.map(Self.trigger))
        return body
    }

    func prefillBody(prompt: PromptInput) -> JSONObject {
        ["model": .string(model), "prompt": prompt.json, "n_predict": 0, "cache_prompt": true]
    }

    /// The server's trigger for one of the session's: a word (type 1), or, for a trigger with
    /// a space, a pattern (type 2) in which the whitespace run stands for any run, as the
    /// session's does (`{ "name" : ` finds `{"name":`). Either way the server feeds the grammar
    /// from the trigger's start (the pattern's capture).
    static func trigger(_ trigger: String) -> JSONValue {
        guard trigger.contains(where: \.isWhitespace) else { return ["type": 1, "value": .string(trigger)] }
        return ["type": 2, "value": .string("(" + GrammarText.pattern(matching: trigger) + ")")]
    }

    /// Greedy as temperature 0 (llama.cpp then takes the most likely token); random with the
    /// session's filters, a filter that is off sent as its neutral value.
    static func addSampling(_ sampling: SamplingOptions, to body: inout JSONObject) {
        switch sampling.mode {
        case .greedy:
            body["temperature"] = 0
        case .random(let topK, let topP, let minP, let temperature, let seed):
            body["temperature"] = .double(Double(temperature))
            body["top_k"] = .int(topK ?? 0)
            body["top_p"] = .double(Double(topP ?? 1))
            body["min_p"] = .double(Double(minP ?? 0))
            body["seed"] = .int(Int(seed))
        }
        if sampling.repetitionPenalty != 1 {
            body["repeat_penalty"] = .double(Double(sampling.repetitionPenalty))
            body["repeat_last_n"] = .int(sampling.repetitionWindow)
        }
    }

    /// An event: `content` while generating; `stop: true` with `stop_type`, `stopping_word`
    /// and `timings` at the end; `error` when the server failed mid-stream.
    func read(_ event: String, into progress: inout CompletionProgress) throws(OpenAICompatibleModelError) -> String {
        guard let json = try? JSONValue(parsing: event, duplicateKeys: .lastWins) else {
            throw .unreadableAnswer(url: url.absoluteString, reason: "an event that is not JSON: \(event.prefix(200))")
        }
        if let error = json["error"], !error.isNull {
            throw ServerEndpoint.error(status: error["code"]?.intValue ?? 500, text: json.jsonString, url: url, keySent: false)
        }
        // every event counts the prompt and the tokens so far, so a round the conversation
        // stops early (a repeated call) still has them; the last event's timings say more
        if let predicted = json["tokens_predicted"]?.intValue { progress.generatedTokens = predicted }
        if let evaluated = json["tokens_evaluated"]?.intValue { progress.promptTokens = evaluated }
        let text = json["content"]?.stringValue ?? ""
        if !text.isEmpty { progress.textEvents += 1 }
        guard json["stop"]?.boolValue == true else { return text }
        progress.isFinished = true
        progress.stopReason = switch json["stop_type"]?.stringValue {
        case "word": .stopString(json["stopping_word"]?.stringValue ?? "")
        case "limit": .maximumTokens
        default: .endOfGeneration
        }
        if let timings = json["timings"] {
            let cached = timings["cache_n"]?.intValue ?? 0
            progress.cachedTokens = cached
            progress.promptTokens = cached + (timings["prompt_n"]?.intValue ?? 0)
            progress.generatedTokens = timings["predicted_n"]?.intValue ?? progress.generatedTokens
            progress.prefillDuration = timings["prompt_ms"]?.doubleValue.map { .milliseconds($0) }
            progress.generationDuration = timings["predicted_ms"]?.doubleValue.map { .milliseconds($0) }
        }
        return text
    }
}
