import Foundation

/// The chat families whose real Jinja templates the suite carries as fixtures
/// (Fixtures/ChatTemplates, sources in its README.md): the template, the layout llama.cpp
/// detects for it, and what a tiny model of the family needs (special tokens, bos/eos), as the
/// family's own GGUF files have them.
enum TemplateFamily: String, CaseIterable, Sendable {
    case llama3, mistralV3, mistralV7, phi4Mini, granite, deepseekV3, gemma3, qwen3, chatml

    /// The fixture's file name in Fixtures/ChatTemplates.
    var fixtureName: String {
        switch self {
        case .llama3: "meta-llama-Llama-3.3-70B-Instruct.jinja"
        case .mistralV3: "mistralai-Mistral-7B-Instruct-v0.3.jinja"
        case .mistralV7: "mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja"
        case .phi4Mini: "microsoft-Phi-4-mini-instruct.jinja"
        case .granite: "ibm-granite-granite-3.3-2B-Instruct.jinja"
        case .deepseekV3: "deepseek-ai-DeepSeek-V3.1.jinja"
        case .gemma3: "google-gemma-3-it.jinja"
        case .qwen3: "Qwen-Qwen3-0.6B.jinja"
        case .chatml: "Qwen-Qwen2.5-7B-Instruct.jinja"
        }
    }

    /// The layout `ChatTemplate(template:architecture: "llama")` names for the template: the
    /// built-in llama.cpp's `llm_chat_detect_template` picks (written down from its source, not
    /// from Lantern), Lantern's own "chatml" for any template with `<|im_start|>`, or the Tekken
    /// layout Lantern reads in a Mistral v7 template that writes no space after its markers.
    var detectedLayout: String {
        switch self {
        case .llama3: "llama3"
        case .mistralV3: "mistral-v3"
        // llama.cpp names v7 for any `[SYSTEM_PROMPT]`; Small 3.1 writes no space after its
        // markers, which is llama.cpp's Tekken layout, and Lantern names that
        case .mistralV7: "mistral-v7-tekken"
        // Phi-4-mini writes `<|assistant|>` and `<|end|>` like Phi-3; llama.cpp's "phi4" is
        // Phi-4 (14B)'s ChatML with `<|im_sep|>`.
        case .phi4Mini: "phi3"
        case .granite: "granite"
        case .deepseekV3: "deepseek3"
        case .gemma3: "gemma"
        // Qwen3's template is ChatML to llama.cpp; Lantern reads Qwen3 from the architecture.
        case .qwen3, .chatml: "chatml"
        }
    }

    /// The family's special tokens as its GGUF files mark them: control tokens (type 3), which
    /// only markup may spell, and user-defined ones (type 4), which llama.cpp matches as one
    /// token even in text it tokenizes without parsing specials. llama.cpp's converter makes
    /// every added token that is `special` or looks like `<|…|>` / `<｜…｜>` a control token;
    /// Qwen's `<tool_call>` and `<think>` and DeepSeek's `<think>` are neither, so user-defined.
    var controlTokens: [String] {
        switch self {
        case .llama3:
            ["<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>", "<|eom_id|>",
             "<|python_tag|>", "<|finetune_right_pad_id|>"]
        case .mistralV3:
            ["<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]"]
        case .mistralV7:
            ["<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]",
             "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[IMG]"]
        case .phi4Mini:
            ["<|endoftext|>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>", "<|tool|>", "<|/tool|>", "<|tool_call|>", "<|/tool_call|>",
             "<|tool_response|>"]
        case .granite:
            ["<|end_of_text|>", "<|start_of_role|>", "<|end_of_role|>", "<|tool_call|>", "<|start_of_cite|>", "<|end_of_cite|>"]
        case .deepseekV3:
            ["<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>", "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>",
             "<｜tool▁sep｜>", "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>", "<｜tool▁outputs▁begin｜>", "<｜tool▁output▁begin｜>",
             "<｜tool▁output▁end｜>", "<｜tool▁outputs▁end｜>"]
        case .gemma3: ["<pad>", "<eos>", "<bos>", "<start_of_turn>", "<end_of_turn>", "<start_of_image>"]
        case .qwen3, .chatml: ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
        }
    }

    var userDefinedTokens: [String] {
        switch self {
        case .deepseekV3: ["<think>", "</think>"]
        case .qwen3: ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "<think>", "</think>"]
        case .chatml: ["<tool_call>", "</tool_call>"]
        default: []
        }
    }

    /// The beginning- and end-of-sequence tokens the family's GGUF names, whether the
    /// tokenizer adds the first, and its end of turn.
    var beginningOfSequence: String {
        switch self {
        case .llama3: "<|begin_of_text|>"
        case .mistralV3, .mistralV7: "<s>"
        case .phi4Mini, .qwen3, .chatml: "<|endoftext|>"
        case .granite: "<|end_of_text|>"
        case .deepseekV3: "<｜begin▁of▁sentence｜>"
        case .gemma3: "<bos>"
        }
    }

    var endOfSequence: String {
        switch self {
        case .llama3: "<|eot_id|>"
        case .mistralV3, .mistralV7: "</s>"
        case .phi4Mini: "<|endoftext|>"
        case .granite: "<|end_of_text|>"
        case .deepseekV3: "<｜end▁of▁sentence｜>"
        case .gemma3: "<eos>"
        case .qwen3, .chatml: "<|im_end|>"
        }
    }

    var addsBeginningOfSequence: Bool { [.llama3, .mistralV3, .mistralV7, .deepseekV3, .gemma3].contains(self) }

    /// (llama.cpp also takes Granite's and DeepSeek's end of sequence for an end of turn.)
    var endOfTurn: String? {
        switch self {
        case .llama3: "<|eot_id|>"
        case .phi4Mini: "<|end|>"
        case .granite: "<|end_of_text|>"
        case .deepseekV3: "<｜end▁of▁sentence｜>"
        case .gemma3: "<end_of_turn>"
        case .qwen3, .chatml: "<|im_end|>"
        default: nil
        }
    }

    /// Llama 3's end of a turn that expects a tool's result (`<|eom_id|>`).
    var endOfMessage: String? { self == .llama3 ? "<|eom_id|>" : nil }

    /// The architecture a tiny model of the family is written with: Qwen3's own (Lantern reads
    /// Qwen3's layout from it), llama for the rest (the layout comes from the template).
    var architecture: String { self == .qwen3 ? "qwen3" : "llama" }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ChatTemplates")

    /// The fixture's text, byte for byte.
    func template() throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent(fixtureName), encoding: .utf8)
    }
}
