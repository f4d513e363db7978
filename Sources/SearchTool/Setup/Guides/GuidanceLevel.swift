/// The capability level of a guide (Apple's `GuidanceLevel`).
public enum GuidanceLevel: Sendable, Hashable {
    case complete
    case focused(ContentDomain)
    case dynamic(GuidanceProfile)
}
