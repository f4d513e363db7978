import CLlama
import Foundation

/// llama.cpp's built-in chat templates (`llama_chat_apply_template`): about fifty layouts it
/// renders without a Jinja engine, each by name ("gemma", "llama3", "mistral-v7", …) or found by
/// its detection in a model's Jinja template. No model is needed.
enum LlamaChatTemplates {
    /// The names llama.cpp accepts, in its order.
    static let builtinNames: [String] = {
        let count = Int(llama_chat_builtin_templates(nil, 0))
        guard count > 0 else { return [] }
        var names = [UnsafePointer<CChar>?](repeating: nil, count: count)
        let written = Int(llama_chat_builtin_templates(&names, count))
        return names.prefix(written).compactMap { $0.map { String(cString: $0) } }
    }()

    /// `messages` rendered with `template` (a built-in name, or a Jinja template llama.cpp
    /// recognises); nil when llama.cpp does not recognise it.
    static func render(_ template: String, messages: [(role: String, content: String)], addAssistantPrefix: Bool) -> String? {
        let roles = messages.map { strdup($0.role) }
        let contents = messages.map { strdup($0.content) }
        defer { (roles + contents).forEach { free($0) } }
        var chat = zip(roles, contents).map { llama_chat_message(role: $0, content: $1) }
        var capacity = messages.reduce(256) { $0 + $1.content.utf8.count * 2 + 64 }
        for _ in 0..<2 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = llama_chat_apply_template(template, &chat, chat.count, addAssistantPrefix, &buffer, Int32(capacity))
            if length < 0 { return nil }
            if Int(length) <= capacity {
                return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = Int(length)
        }
        return nil
    }
}
