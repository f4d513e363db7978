/// How a walk through a grammar's texts ended (`LocalModel.walkGrammar`).
package enum GrammarWalk: Sendable, Equatable {
    /// A whole text the grammar accepts, with the end of generation allowed after it.
    case accepted([UInt8])
    /// The walk passed its byte limit before it ended.
    case tooLong([UInt8])
    /// The grammar allowed neither another byte nor the end here: a text the model could be
    /// led into and never finish.
    case deadEnd([UInt8])
}
