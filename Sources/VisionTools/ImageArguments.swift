import LocalModel

/// The arguments of both vision tools: the label of an image attached to the prompt, as in
/// `{"image": "receipt-1"}` (Apple's `ImageReference`, whose `attachmentLabel` this is).
///
/// The model cannot see the image; it names it. For each request the tools narrow the schema
/// to the labels the prompt actually carries (`schema(for:)`), so the grammar lets the model
/// write only a label that exists.
public struct ImageArguments: Generable, Codable, Sendable, Hashable {
    /// The label of an image attached to the prompt.
    public var image: String

    public init(image: String) { self.image = image }

    /// Any label: what the instructions describe (they are cached across requests, so they
    /// cannot list one prompt's labels).
    public static let generationSchema: GenerationSchema = .object([
        .property("image", .string(description: "The label of an image attached to the prompt", minLength: 1, maxLength: 100)),
    ])

    /// The schema for one prompt: `image` must be one of its attachment labels. A prompt without
    /// attachments keeps the general schema, and the call then fails with `unknownImageLabel`.
    public static func schema(for prompt: Prompt) -> GenerationSchema {
        var labels: [String] = []
        for attachment in prompt.attachments where !labels.contains(attachment.label) { labels.append(attachment.label) }
        guard !labels.isEmpty else { return generationSchema }
        return .object([
            .property("image", .string(description: "The label of an image attached to the prompt", anyOf: labels)),
        ])
    }

    /// The attachment `image` names in `prompt` (Apple's `ImageReference.resolved(in:)`, which
    /// returns nil; this throws an error that lists the labels there are).
    public func resolved(in prompt: Prompt) throws(VisionToolError) -> ImageAttachment {
        guard let attachment = prompt.attachments.first(where: { $0.label == image }) else {
            throw .unknownImageLabel(label: image, available: prompt.attachments.map(\.label))
        }
        return attachment
    }

    /// The attachment `image` names in the prompt the session is answering; outside a tool
    /// call there is no prompt, so every label is unknown.
    func resolvedInCurrentCall() throws(VisionToolError) -> ImageAttachment {
        try resolved(in: ToolCallContext.current?.prompt ?? Prompt(""))
    }
}
