import SearchTool

/// The guide an evaluation runs the search tool with, by the name `eval --guide` takes.
///
/// Comparing guides on the same samples is what the seeds recommend before changing one
/// (§10: "whenever you change guidance, re-run your evaluation suite").
public enum EvaluationGuide: String, Sendable, Hashable, CaseIterable, Codable {
    /// `.focused(.items)` plus the corpus's attributes: what Apple ships on device.
    case focused
    /// Every capability.
    case complete
    /// A profile for a personal-notes corpus: text, numbers, dates and stages over the corpus's
    /// attributes, without people or content-type filters (such a corpus has no authors, and
    /// every item shares one content type, which the seeds say not to offer as a filter).
    case dynamic

    /// The search tool's guide, with results written in `format`.
    public func guide(format: FormatLevel) -> Guide {
        var guide: Guide
        switch self {
        case .focused: guide = .focused()
        case .complete: guide = .complete
        case .dynamic:
            guide = .dynamic(GuidanceProfile(textMatch: true, numericMatch: true, dates: true, people: false,
                                             contentType: false, stages: true))
        }
        guide.format = format
        return guide
    }
}
