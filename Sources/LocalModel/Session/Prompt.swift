import Foundation

/// What the user asks: text, and images attached to it by label (Apple's pattern for OCR and
/// barcode tools: the model cannot see the image, but a tool can read it when the model names
/// its label).
public struct Prompt: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var text: String
    public var attachments: [ImageAttachment]

    public init(_ text: String, attachments: [ImageAttachment] = []) {
        self.text = text
        self.attachments = attachments
    }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { text }

    /// The text the model reads: the question, then one line per attachment naming its label.
    var renderedText: String {
        guard !attachments.isEmpty else { return text }
        let lines = attachments.map { "[image attached: \"\($0.label)\" (\($0.url.lastPathComponent))]" }
        return text + "\n\n" + lines.joined(separator: "\n")
    }
}

/// An image attached to a prompt under a label that tools take as their argument.
public struct ImageAttachment: Sendable, Hashable {
    public var url: URL
    public var label: String

    public init(url: URL, label: String? = nil) {
        self.url = url
        self.label = label ?? url.deletingPathExtension().lastPathComponent
    }
}

/// What a tool can know about the request it is serving, available during `call(arguments:)`
/// as `ToolCallContext.current` (a task-local value set by the session).
public struct ToolCallContext: Sendable {
    /// The prompt being answered, with its attachments.
    public let prompt: Prompt

    @TaskLocal public static var current: ToolCallContext?
}
