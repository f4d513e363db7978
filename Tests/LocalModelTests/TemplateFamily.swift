import Foundation

/// The chat families whose real Jinja templates the suite carries as fixtures
/// (Fixtures/ChatTemplates, sources in its README.md): the template, the layout llama.cpp
/// detects for it, and what a tiny model of the family needs (special tokens, bos/eos).
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
    /// from Lantern), or Lantern's own "chatml" for any template with `<|im_start|>`.
    var detectedLayout: String {
        switch self {
        case .llama3: "llama3"
        case .mistralV3: "mistral-v3"
        case .mistralV7: "mistral-v7"
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

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ChatTemplates")

    /// The fixture's text, byte for byte.
    func template() throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent(fixtureName), encoding: .utf8)
    }
}
