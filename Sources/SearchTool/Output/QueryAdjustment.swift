/// One change the search tool made to the query the model wrote, from what the question
/// grounds (`QuestionGrounding`): a condition the question states that the query left out, a
/// term read as the attribute value it is or as the kind of thing the items are, a condition
/// with no ground in the question given up because the search found nothing with it, or terms
/// no item holds searched as the question's own words. Replies carry them so `ask`, `eval` and the
/// trace can say what ran; the model reads the same sentences in the result's notes.
public struct QueryAdjustment: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// A condition the question states, added to the query.
        case added
        /// A search term that is a value of an attribute, searched as that value instead.
        case readAsValue
        /// A search term that names the kind of thing every item is ("trails"), left out.
        case readAsKind
        /// A condition the question gives no ground for, dropped after the query found nothing.
        case relaxed
        /// Terms no item holds, replaced by the question's own words.
        case replaced
    }

    public var kind: Kind
    /// The condition, as the query language spells it (`stateOrProvince is California`,
    /// `dates 2023-01-01…2023-01-31`, `stage count`, `term "california"`).
    public var condition: String
    /// Why, in words a reader of the trace can check against the question.
    public var reason: String

    public init(kind: Kind, condition: String, reason: String) {
        self.kind = kind
        self.condition = condition
        self.reason = reason
    }

    /// `Added stateOrProvince is California: the question names it`.
    public var description: String {
        let verb = switch kind {
        case .added: "Added"
        case .readAsValue: "Read as a value"
        case .readAsKind: "Read as the items' kind"
        case .relaxed: "Relaxed"
        case .replaced: "Replaced"
        }
        return "\(verb) \(condition): \(reason)"
    }
}
